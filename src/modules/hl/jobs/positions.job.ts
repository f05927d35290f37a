import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { mapLimit } from '../../../common/async/map-limit';
import { Decimal } from '../../../common/decimal/decimal';
import { AppConfig } from '../../../config/app.config';
import { JobOutcome } from '../../../jobs/job.types';
import { HyperliquidInfoClient } from '../../../providers/hyperliquid/hyperliquid-info.client';
import { ClearinghouseState, SpotClearinghouseState } from '../../../providers/hyperliquid/hyperliquid.types';
import { HlAddressesRepository } from './hl-addresses.repository';
import { HlStateRepository, PositionRow, SpotBalanceRow } from './hl-state.repository';

const SAVE_CHUNK = 500;

/**
 * One polling round of the address universe: the due addresses (largest first), each read on the native
 * dex, on every HIP-3 dex (each margins separately) and on spot, with bounded concurrency inside the
 * shared weight budget. The latest state of each address replaces its previous one; an address that
 * fails keeps its previous state and is retried later.
 */
@Injectable()
export class PositionsJob {
  private readonly logger = new Logger(PositionsJob.name);

  constructor(
    private readonly client: HyperliquidInfoClient,
    private readonly state: HlStateRepository,
    private readonly addresses: HlAddressesRepository,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async run(signal?: AbortSignal): Promise<JobOutcome> {
    const { pollBatch, pollConcurrency, positionsIntervalMs } = this.config.get('hlJobs', { infer: true });
    const due = await this.addresses.dueAddresses(pollBatch);
    const dexes = [...new Set((await this.state.listMarkets()).filter((m) => m.market === 'perp' && m.dex).map((m) => m.dex))];
    let rows = 0;
    let failures = 0;
    let polled = 0;
    // Saved chunk by chunk: a large round (a benchmark polls 100,000 addresses) never holds it all in memory.
    for (let i = 0; i < due.length && !signal?.aborted; i += SAVE_CHUNK) {
      const chunk = due.slice(i, i + SAVE_CHUNK);
      const read = await this.readChunk(chunk.map((d) => d.address), dexes, pollConcurrency, signal);
      await this.state.saveAccountStates({ ...read, baseIntervalMs: positionsIntervalMs });
      rows += read.positions.length + read.balances.length;
      failures += read.errors.size;
      polled += read.addresses.length;
    }
    return { rows, failures, details: { addresses: polled } };
  }

  private async readChunk(addresses: string[], dexes: string[], concurrency: number, signal?: AbortSignal) {
    const positions: PositionRow[] = [];
    const balances: SpotBalanceRow[] = [];
    const accountValues = new Map<string, string>();
    const errors = new Map<string, string>();
    await mapLimit(
      addresses,
      concurrency,
      async (address) => {
        const perps = await Promise.all(['', ...dexes].map((dex) => this.client.clearinghouseState(address, dex || undefined).then((s) => ({ dex, s }))));
        const spot = await this.client.spotClearinghouseState(address);
        for (const { dex, s } of perps) positions.push(...toPositionRows(address, dex, s));
        balances.push(...toBalanceRows(address, spot));
        accountValues.set(address, accountValue(perps.map((p) => p.s), spot));
      },
      {
        signal,
        onError: (address, error) => {
          errors.set(address, (error as Error).message.slice(0, 500));
          this.logger.warn(`reading ${address} failed: ${(error as Error).message}`);
        },
      },
    );
    const done = addresses.filter((a) => accountValues.has(a) || errors.has(a));
    return { addresses: done, positions, balances, accountValues, errors };
  }
}

function toPositionRows(address: string, dex: string, state: ClearinghouseState): PositionRow[] {
  return state.assetPositions
    .filter((p) => !new Decimal(p.szi).isZero())
    .map((p) => ({
      address,
      coin: p.coin,
      dex,
      szi: p.szi,
      entryPx: p.entryPx,
      leverageType: p.leverage.type,
      leverage: String(p.leverage.value),
      positionValue: p.positionValue,
      unrealizedPnl: p.unrealizedPnl,
      marginUsed: p.marginUsed,
      liquidationPx: p.liquidationPx,
      cumFunding: p.cumFunding?.sinceOpen ?? null,
    }));
}

function toBalanceRows(address: string, state: SpotClearinghouseState): SpotBalanceRow[] {
  return state.balances
    .filter((b) => !new Decimal(b.total).isZero())
    .map((b) => ({ address, coin: b.coin, token: b.token ?? -1, total: b.total, hold: b.hold, entryNtl: b.entryNtl }));
}

/** Perp equity on every dex plus spot USDC: what the poller ranks addresses by. */
function accountValue(perps: ClearinghouseState[], spot: SpotClearinghouseState): string {
  const perp = perps.reduce((sum, s) => sum.plus(s.marginSummary.accountValue), new Decimal(0));
  const usdc = spot.balances.find((b) => b.coin === 'USDC')?.total ?? '0';
  return perp.plus(usdc).toFixed();
}
