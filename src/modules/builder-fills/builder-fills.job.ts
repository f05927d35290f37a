import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { JobOutcome, JobProgress } from '../../jobs/job.types';
import { JobFailures } from '../../jobs/job-failures';
import { BUILDER_FILLS_SOURCE, BuilderFillsSource } from '../../providers/hyperliquid/builder-fills-source';
import { withFillKeys } from '../../providers/hyperliquid/fill-identity';
import { HyperliquidInfoClient } from '../../providers/hyperliquid/hyperliquid-info.client';
import { BuilderFill, Fill } from '../../providers/hyperliquid/hyperliquid.types';
import { TIER_NAMES, TIERS } from '../billing/billing.public';
import { OpcRevenueRepository } from '../opc/opc-revenue.repository';
import { PointsLedgerRepository } from '../points/points-ledger.repository';
import { BuilderFillsRepository } from './builder-fills.repository';
import { AttributedFill, builderOfUserFill, fromDailyFile, fromUserFill, marketOf, quoteTokens, TrackedBuilder } from './fill-attribution';

const DAY_MS = 86_400_000;
const USD_QUOTES = new Set(['USDC']);

/**
 * economy.builder-fills: reads the fills attributed to the service's builder and to each active OPC's, then
 * credits points, refreshes the points ranks and the OPCs' daily revenue. Finished days come from the
 * builder's daily file (read once it is published; a day not yet published is asked again next run); today,
 * and a finished day whose file is not out yet, from the account wallets' own fills, attributed by the
 * builder fee's rate. Both give a fill the same key, so each fill is stored once however it arrives.
 */
@Injectable()
export class BuilderFillsJob {
  private readonly logger = new Logger(BuilderFillsJob.name);

  constructor(
    @Inject(BUILDER_FILLS_SOURCE) private readonly files: BuilderFillsSource,
    private readonly info: HyperliquidInfoClient,
    private readonly fills: BuilderFillsRepository,
    private readonly points: PointsLedgerRepository,
    private readonly opcRevenue: OpcRevenueRepository,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async run(signal?: AbortSignal, progress?: JobProgress, now = Date.now()): Promise<JobOutcome> {
    const { backfillDays, pointsMinNotionalUsd } = this.config.get('economy', { infer: true });
    const builders = await this.trackedBuilders();
    const quotes = new SpotQuotes(this.info, this.fills);
    let stored = 0;
    const failures = new JobFailures();
    const days = finishedDays(now, backfillDays);
    const pendingDays = new Map<string, string[]>();
    for (const builder of builders) {
      const read = await this.fills.ingestedDays(builder.address, days[0]);
      const missing = days.filter((day) => !read.has(day));
      const unpublished: string[] = [];
      // The next day's file is downloaded and parsed (this process's CPU) while the current one is stored
      // (PostgreSQL's): the two halves of the work overlap instead of taking turns.
      const fetchDay = (day: string) =>
        this.files.dailyFills({ builder: builder.address, day, signal }).then(
          (file) => ({ day, file }),
          (error: unknown) => ({ day, error }),
        );
      let next = missing.length > 0 ? fetchDay(missing[0]) : undefined;
      for (let i = 0; i < missing.length; i++) {
        const fetched = await next!;
        next = i + 1 < missing.length ? fetchDay(missing[i + 1]) : undefined;
        signal?.throwIfAborted();
        progress?.report(`reading ${builder.address} ${fetched.day}`);
        try {
          if ('error' in fetched) throw fetched.error;
          if (fetched.file.status === 'not-published') {
            unpublished.push(fetched.day);
            continue;
          }
          const { fills } = fetched.file;
          const usdOf = await quotes.pricesFor(fills);
          const hashes = await this.ownFillHashes(fills, fetched.day, failures, signal);
          stored += await this.fills.store(fills.map((fill) => fromDailyFile(fill, usdOf(fill), hashes.get(fill.fillKey) ?? null)));
          await this.fills.markDayIngested(builder.address, fetched.day, fills.length);
        } catch (error) {
          if (signal?.aborted) throw error;
          unpublished.push(fetched.day);
          this.logger.warn(failures.add(`builder fills ${builder.address} ${fetched.day}`, error));
        }
      }
      pendingDays.set(builder.address, unpublished);
    }
    // The wallets' own fills cover today, and yesterday while its file is not in (files come out a day later;
    // an older day whose file is still missing stays missing: a builder with no fills that day has none).
    const yesterday = days[days.length - 1];
    const yesterdayPending = [...pendingDays.values()].some((pending) => pending.includes(yesterday));
    const since = startOfDay(now) - (yesterdayPending ? DAY_MS : 0);
    const own = await this.ownFills({ builders, since, quotes, active: { days: backfillDays, now: new Date(now) }, failures, signal });
    stored += await this.fills.store(own);

    progress?.report('crediting points');
    const credited = await this.points.accrue(pointsMinNotionalUsd);
    await this.points.refreshRanks();
    const revenueEntries = await this.opcRevenue.refresh(backfillDays + 1);
    return { rows: stored, failures: failures.count, failed: failures.named, details: { builders: builders.length, pointsCredited: credited, revenueEntries } };
  }

  /** The service's builder (its base rate and the rates after each tier's discount) and every active OPC's. */
  private async trackedBuilders(): Promise<TrackedBuilder[]> {
    const { builderAddress, baseFeeTenthsBps } = this.config.get('economy', { infer: true });
    const service: TrackedBuilder[] = builderAddress
      ? [{ address: builderAddress, feeRatesTenthsBps: TIER_NAMES.map((tier) => baseFeeTenthsBps * (1 - Number(TIERS[tier].feeDiscount))) }]
      : [];
    const opcs = (await this.opcRevenue.activeBuilders()).map((opc) => ({ address: opc.address, feeRatesTenthsBps: [opc.feeTenthsBps] }));
    return [...service, ...opcs.filter((opc) => opc.address !== builderAddress)];
  }

  /** Builder-attributed fills of the active account wallets since `since`, paged 2,000 at a time; one wallet failing does not stop the rest. */
  private async ownFills({
    builders,
    since,
    quotes,
    active,
    failures,
    signal,
  }: {
    builders: TrackedBuilder[];
    since: number;
    quotes: SpotQuotes;
    active: { days: number; now: Date };
    failures: JobFailures;
    signal?: AbortSignal;
  }): Promise<AttributedFill[]> {
    const fills: AttributedFill[] = [];
    if (builders.length === 0) return fills;
    for (const wallet of await this.fills.activeAccountWallets(active.days, active.now)) {
      signal?.throwIfAborted();
      try {
        const page = withFillKeys((await this.userFillsSince(wallet, since)).map((fill) => ({ ...fill, user: wallet })));
        const usdOf = await quotes.pricesFor(page);
        for (const fill of page) {
          const builder = builderOfUserFill(fill, builders);
          if (builder) fills.push(fromUserFill(fill, wallet, builder, usdOf(fill)));
        }
      } catch (error) {
        if (signal?.aborted) throw error;
        this.logger.warn(failures.add(`fills of ${wallet}`, error));
      }
    }
    return fills;
  }

  /**
   * The hashes of a day file's fills of account wallets (points rows show them), from each wallet's own fills
   * of that day, by fill key. A wallet whose fills cannot be read, or whose history no longer reaches the day
   * (Hyperliquid serves a user's 10,000 most recent fills), leaves its fills without a hash.
   */
  private async ownFillHashes(fills: readonly BuilderFill[], day: string, failures: JobFailures, signal?: AbortSignal): Promise<Map<string, string>> {
    const byKey = new Map<string, string>();
    const start = Date.parse(`${day}T00:00:00.000Z`);
    for (const wallet of await this.fills.accountWalletsAmong(fills.map((fill) => fill.user.toLowerCase()))) {
      signal?.throwIfAborted();
      try {
        const own = (await this.userFillsSince(wallet, start, start + DAY_MS - 1)).filter((fill) => fill.time < start + DAY_MS);
        for (const fill of withFillKeys(own.map((f) => ({ ...f, user: wallet })))) byKey.set(fill.fillKey, fill.hash);
      } catch (error) {
        if (signal?.aborted) throw error;
        this.logger.warn(failures.add(`fill hashes of ${wallet} ${day}`, error));
      }
    }
    return byKey;
  }

  private async userFillsSince(wallet: string, since: number, until?: number): Promise<Fill[]> {
    const all: Fill[] = [];
    let start = since;
    for (;;) {
      const page = await this.info.userFillsByTime(wallet, start, until);
      all.push(...page);
      if (page.length < 2_000) return all;
      start = Math.max(...page.map((fill) => fill.time)) + 1;
    }
  }
}

/** USD per unit of a fill's quote: 1 for perps and USDC pairs, else the quote token's mid at the fill's minute. */
class SpotQuotes {
  private pairs?: Promise<Map<string, string>>;

  constructor(
    private readonly info: HyperliquidInfoClient,
    private readonly fills: BuilderFillsRepository,
  ) {}

  /** Looks up every spot quote the batch needs (once per pair and minute), then answers each fill's at once. */
  async pricesFor(batch: ReadonlyArray<Pick<BuilderFill, 'coin' | 'time'>>): Promise<(fill: Pick<BuilderFill, 'coin' | 'time'>) => string | undefined> {
    const prices = new Map<string, string | undefined>();
    for (const fill of batch) {
      const key = priceKey(fill);
      if (key !== undefined && !prices.has(key)) prices.set(key, await this.usdOf(fill));
    }
    return (fill) => {
      const key = priceKey(fill);
      return key === undefined ? '1' : prices.get(key);
    };
  }

  private async usdOf(fill: Pick<BuilderFill, 'coin' | 'time'>): Promise<string | undefined> {
    this.pairs ??= this.info.spotMetaAndAssetCtxs().then(({ meta }) => quoteTokens(meta));
    const quote = (await this.pairs).get(fill.coin) ?? (fill.coin.includes('/') ? fill.coin.split('/')[1] : undefined);
    if (quote === undefined) return undefined;
    return USD_QUOTES.has(quote) ? '1' : this.fills.tokenUsdAt(quote, fill.time);
  }
}

/** A spot fill's pair and minute; undefined for a perp, whose quote is its collateral stablecoin. */
function priceKey({ coin, time }: Pick<BuilderFill, 'coin' | 'time'>): string | undefined {
  return marketOf(coin) === 'perp' ? undefined : `${coin}|${Math.floor(time / 60_000)}`;
}

/** The `count` finished UTC days before `now`, oldest first, as YYYY-MM-DD. */
export function finishedDays(now: number, count: number): string[] {
  const today = startOfDay(now);
  return Array.from({ length: count }, (_, i) => new Date(today - (count - i) * DAY_MS).toISOString().slice(0, 10));
}

function startOfDay(time: number): number {
  return Math.floor(time / DAY_MS) * DAY_MS;
}
