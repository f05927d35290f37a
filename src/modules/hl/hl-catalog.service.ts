import { Injectable, Logger } from '@nestjs/common';
import { CachedValue } from '../../common/cache/cached-value';
import { SnapshotScopedCache } from '../../common/cache/snapshot-scoped-cache';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { SymbolIndex } from '../../common/lookup/symbol-index';
import { CurrentSnapshot, SnapshotStore } from './snapshot/snapshot-store';
import { SnapshotKind } from './snapshot/snapshot-tables';
import { HlMarketsRepository, MarketRow, SnapshotCoinRow } from './hl-markets.repository';

/** How long a replica trusts its copy of hl_markets and the current snapshot ids. */
export const CATALOG_TTL_MS = 1_000;
/** Contract 7.2: during a database hiccup the last catalog keeps serving for up to about an hour. */
const CATALOG_MAX_STALE_MS = 60 * 60 * 1_000;
/** An unknown outcomeId's 400 names at most this many listed outcomes, so the message stays one readable line. */
export const MAX_OUTCOMES_NAMED = 20;

/**
 * One market's valid coins, looked up as SymbolIndex does (answering the canonical spelling of hl_markets),
 * with the refusals worded for the `coin` parameter.
 */
export class CoinIndex {
  private readonly coins: SymbolIndex;

  constructor(
    coins: Iterable<string>,
    /** What a valid coin of this market looks like, for the unknown-coin message. */
    private readonly expected: string,
  ) {
    this.coins = new SymbolIndex(coins);
  }

  has(coin: string): boolean {
    return this.coins.has(coin);
  }

  /** The canonical coin, or 400 VALIDATION_ERROR naming `coin`. */
  resolve(input: string): string {
    const coin = this.coins.resolve(input);
    if (coin !== undefined) return coin;
    if (this.coins.isAmbiguous(input)) {
      throw AppError.validation('coin', `${JSON.stringify(input)} matches several coins when case is ignored; use the exact spelling`);
    }
    throw AppError.validation('coin', `unknown coin ${JSON.stringify(input)} (expected ${this.expected})`);
  }
}

export interface HlOutcome {
  outcomeId: number;
  name: string;
  /** The YES side's mid (hl_markets.mid_px, else its mark), null when neither is known. */
  markPx: string | null;
  /** The YES side's coin (`#<10·o>`), under which a market snapshot stores the mark it valued the outcome at. */
  yesCoin: string | null;
}

/** An immutable view of the reference data; every lookup is synchronous. */
export class HlCatalog {
  constructor(
    /** Perp holders and the liquidation map: native perps and HIP-3 `dex:SYMBOL` coins. */
    readonly perp: CoinIndex,
    /** Spot holders: spot token symbols. */
    readonly spot: CoinIndex,
    /** HIP-3 smart traders: perp coins listed with a dex. */
    readonly hip3: CoinIndex,
    private readonly outcomes: ReadonlyMap<number, HlOutcome>,
    private readonly marks: ReadonlyMap<string, string | null>,
    private readonly snapshots: Readonly<Record<SnapshotKind, CurrentSnapshot | null>>,
  ) {}

  /** The published snapshot of a kind, or 502 MARKET_UPSTREAM_ERROR before the first one exists. */
  requireSnapshot(kind: SnapshotKind): CurrentSnapshot {
    const snapshot = this.snapshots[kind];
    if (!snapshot) throw new AppError(ErrorCode.MARKET_UPSTREAM_ERROR, 'no snapshot published yet');
    return snapshot;
  }

  outcome(outcomeId: number): HlOutcome {
    const outcome = this.outcomes.get(outcomeId);
    // Outcomes are listed nowhere else in the API, so the refusal names the valid ids (the list is short).
    if (!outcome) throw AppError.validation('outcomeId', `unknown outcome ${JSON.stringify(String(outcomeId))} (${this.listedOutcomes()})`);
    return outcome;
  }

  /** `listed: 0 "name", 1 "name"`, at most MAX_OUTCOMES_NAMED of them, for the unknown-outcome message. */
  private listedOutcomes(): string {
    if (this.outcomes.size === 0) return 'no outcome is listed yet';
    const ids = [...this.outcomes.values()].sort((a, b) => a.outcomeId - b.outcomeId);
    const named = ids.slice(0, MAX_OUTCOMES_NAMED).map((o) => `${o.outcomeId} ${JSON.stringify(o.name)}`);
    const more = ids.length > MAX_OUTCOMES_NAMED ? ` and ${ids.length - MAX_OUTCOMES_NAMED} more` : '';
    return `listed: ${named.join(', ')}${more}`;
  }

  /** hl_markets.mark_px of a listed coin. */
  markPx(market: string, coin: string): string | null {
    return this.marks.get(`${market}:${coin}`) ?? null;
  }

  static build(markets: MarketRow[], snapshots: Record<SnapshotKind, CurrentSnapshot | null>): HlCatalog {
    const perp: string[] = [];
    const spot: string[] = [];
    const hip3: string[] = [];
    const marks = new Map<string, string | null>();
    const sides = new Map<number, { name: string | null; yes?: MarketRow; no?: MarketRow }>();
    for (const row of markets) {
      marks.set(`${row.market}:${row.coin}`, row.markPx);
      if (row.market === 'perp') {
        perp.push(row.coin);
        if (row.dex !== '') hip3.push(row.coin);
      } else if (row.market === 'spot') {
        spot.push(row.coin);
      } else if (row.market === 'hip4' && row.outcomeId !== null) {
        const outcome = sides.get(row.outcomeId) ?? { name: null };
        if (row.outcomeSide === 1) outcome.no = row;
        else outcome.yes = row;
        outcome.name = outcome.yes?.outcomeName ?? outcome.name ?? row.outcomeName;
        sides.set(row.outcomeId, outcome);
      }
    }
    const outcomes = new Map<number, HlOutcome>();
    for (const [outcomeId, { name, yes }] of sides) {
      outcomes.set(outcomeId, { outcomeId, name: name ?? '', markPx: yes?.midPx ?? yes?.markPx ?? null, yesCoin: yes?.coin ?? null });
    }
    return new HlCatalog(
      new CoinIndex(perp, 'a perp symbol or a HIP-3 dex:SYMBOL coin'),
      new CoinIndex(spot, 'a spot token symbol'),
      new CoinIndex(hip3, 'a HIP-3 dex:SYMBOL coin'),
      outcomes,
      marks,
      snapshots,
    );
  }
}

/**
 * The valid coin sets and the current snapshot ids, held in memory for CATALOG_TTL_MS so hot requests do
 * not read hl_markets or hl_current_snapshots; per-snapshot coin summaries are kept for as long as their
 * snapshot is current (a published snapshot never changes).
 */
@Injectable()
export class HlCatalogService {
  private readonly logger = new Logger(HlCatalogService.name);
  private readonly catalog = new CachedValue(() => this.load(), {
    ttlMs: CATALOG_TTL_MS,
    maxStaleMs: CATALOG_MAX_STALE_MS,
    onStaleServed: (error) => this.logger.warn(`catalog reload failed, serving the previous one: ${String(error)}`),
  });
  private readonly snapshotCoins = new SnapshotScopedCache<ReadonlyMap<string, SnapshotCoinRow>>();

  constructor(
    private readonly markets: HlMarketsRepository,
    private readonly snapshots: SnapshotStore,
  ) {}

  get(): HlCatalog | Promise<HlCatalog> {
    return this.catalog.get();
  }

  /** hl_snapshot_coins of one coin in a market snapshot; undefined when the snapshot has no holders for it. */
  async snapshotCoin(snapshotId: number, market: 'perp' | 'spot' | 'hip4', coin: string): Promise<SnapshotCoinRow | undefined> {
    const coins = await this.snapshotCoins.get(snapshotId, 'all', async () => {
      const rows = await this.markets.listSnapshotCoins(snapshotId);
      return new Map(rows.map((row) => [`${row.market}:${row.coin}`, row]));
    });
    return coins.get(`${market}:${coin}`);
  }

  /** Makes a snapshot published by this process visible at once instead of within CATALOG_TTL_MS. */
  invalidate(): void {
    this.catalog.invalidate();
    this.snapshotCoins.clear();
  }

  private async load(): Promise<HlCatalog> {
    const [markets, market, leaderboard] = await Promise.all([
      this.markets.listMarkets(),
      this.snapshots.current('market'),
      this.snapshots.current('leaderboard'),
    ]);
    return HlCatalog.build(markets, { market, leaderboard });
  }
}
