import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { mapLimit } from '../../../common/async/map-limit';
import { Decimal } from '../../../common/decimal/decimal';
import { AppConfig } from '../../../config/app.config';
import { JobOutcome, JobProgress } from '../../../jobs/job.types';
import { HyperliquidInfoClient } from '../../../providers/hyperliquid/hyperliquid-info.client';
import { ClearinghouseState, SpotClearinghouseState } from '../../../providers/hyperliquid/hyperliquid.types';
import { HlAddressesRepository } from './hl-addresses.repository';
import { HlFeedReadsRepository } from './hl-feed-reads.repository';
import { HlStateRepository, PositionRow, SpotBalanceRow } from './hl-state.repository';

const SAVE_CHUNK = 500;

/** One address's read: the HIP-3 dexes to read besides the native one and spot, and whether that is all of them. */
interface AccountRead {
  address: string;
  hip3Dexes: string[];
  full: boolean;
}

/**
 * One polling round of the address universe: the due addresses (largest first), each read on the native
 * dex and on spot, with bounded concurrency inside the shared weight budget. HIP-3 dexes margin separately,
 * one weight-2 read each, and most addresses hold nothing on any: an address is read on the HIP-3 dexes it
 * held positions on, and on every one only when a full read is due (see dueAddresses). The latest state of
 * what was read replaces its previous one; an address that fails keeps its previous state and is retried later.
 * A round that read at least one address stamps the positions feed with its start (snapshot-freshness.ts).
 */
@Injectable()
export class PositionsJob {
  private readonly logger = new Logger(PositionsJob.name);

  constructor(
    private readonly client: HyperliquidInfoClient,
    private readonly state: HlStateRepository,
    private readonly addresses: HlAddressesRepository,
    private readonly feeds: HlFeedReadsRepository,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async run(signal?: AbortSignal, progress?: JobProgress): Promise<JobOutcome> {
    // Before any read: every state this round stores was read at or after it.
    const startedAt = new Date();
    const { pollBatch, pollConcurrency, positionsIntervalMs, fullReadIntervalMs } = this.config.get('hlJobs', { infer: true });
    const due = await this.addresses.dueAddresses({ limit: pollBatch, fullReadIntervalMs });
    const dexes = [...new Set((await this.state.listMarkets()).filter((m) => m.market === 'perp' && m.dex).map((m) => m.dex))];
    let rows = 0;
    let failures = 0;
    let polled = 0;
    let fullReads = 0;
    // Saved chunk by chunk: a large round (a benchmark polls 100,000 addresses) never holds it all in memory.
    for (let i = 0; i < due.length && !signal?.aborted; i += SAVE_CHUNK) {
      const chunk = due.slice(i, i + SAVE_CHUNK);
      const held = await this.state.heldDexes(chunk.filter((d) => !d.fullReadDue).map((d) => d.address));
      // A held dex no longer listed is not read (it would fail every time); the next full read drops its positions.
      const reads = chunk.map(({ address, fullReadDue }): AccountRead => ({
        address,
        hip3Dexes: fullReadDue ? dexes : dexes.filter((dex) => held.get(address)?.includes(dex)),
        full: fullReadDue,
      }));
      const read = await this.readChunk(reads, pollConcurrency, signal, (n) => progress?.report(`reading addresses: ${polled + n}/${due.length}`));
      progress?.report(`saving ${read.addresses.length} addresses' positions`);
      await this.state.saveAccountStates({ ...read, baseIntervalMs: positionsIntervalMs });
      rows += read.positions.length + read.balances.length;
      failures += read.errors.size;
      polled += read.addresses.length;
      fullReads += read.addresses.length - read.partialReads.size - read.errors.size;
    }
    if (polled > failures) await this.feeds.stamp('positions', startedAt);
    return { rows, failures, details: { addresses: polled, fullReads } };
  }

  private async readChunk(reads: AccountRead[], concurrency: number, signal?: AbortSignal, onRead?: (done: number) => void) {
    const positions: PositionRow[] = [];
    const balances: SpotBalanceRow[] = [];
    const accountValues = new Map<string, string>();
    const errors = new Map<string, string>();
    await mapLimit(
      reads,
      concurrency,
      async ({ address, hip3Dexes }) => {
        const perps = await Promise.all(['', ...hip3Dexes].map((dex) => this.client.clearinghouseState(address, dex || undefined).then((s) => ({ dex, s }))));
        const spot = await this.client.spotClearinghouseState(address);
        for (const { dex, s } of perps) positions.push(...toPositionRows(address, dex, s));
        balances.push(...toBalanceRows(address, spot));
        accountValues.set(
          address,
          accountValue(
            perps.map((p) => p.s),
            spot,
          ),
        );
        onRead?.(accountValues.size + errors.size);
      },
      {
        signal,
        onError: ({ address }, error) => {
          errors.set(address, (error as Error).message.slice(0, 500));
          this.logger.warn(`reading ${address} failed: ${(error as Error).message}`);
        },
      },
    );
    const done = reads.filter((r) => accountValues.has(r.address) || errors.has(r.address));
    const partialReads = new Map(done.filter((r) => !r.full && !errors.has(r.address)).map((r) => [r.address, ['', ...r.hip3Dexes]]));
    return { addresses: done.map((r) => r.address), positions, balances, accountValues, errors, partialReads };
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

/**
 * Perp equity on the dexes read plus spot USDC: what the poller ranks addresses by. Between full reads it
 * misses any equity on the HIP-3 dexes not read (no position there at the last read, though margin may sit
 * there), so such an account can rank low until its next full read: per-dex equity is not stored, and
 * looking it up would cost a query per address.
 */
function accountValue(perps: ClearinghouseState[], spot: SpotClearinghouseState): string {
  const perp = perps.reduce((sum, s) => sum.plus(s.marginSummary.accountValue), new Decimal(0));
  const usdc = spot.balances.find((b) => b.coin === 'USDC')?.total ?? '0';
  return perp.plus(usdc).toFixed();
}
