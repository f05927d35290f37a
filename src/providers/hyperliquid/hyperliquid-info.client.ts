import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { RequestBudget } from '../kit/request-budget';
import { UpstreamHttpClient } from '../kit/upstream-http.client';
import {
  parseAllMids,
  parseMeta,
  parseMetaAndAssetCtxs,
  parseOutcomeMeta,
  parsePerpDexs,
  parseSpotMeta,
  parseSpotMetaAndAssetCtxs,
} from './hyperliquid.schema';
import {
  AllMids,
  ClearinghouseState,
  Fill,
  LeaderboardRow,
  OutcomeMeta,
  PerpDex,
  PerpMeta,
  PerpMetaAndAssetCtxs,
  RecentTrade,
  SpotClearinghouseState,
  SpotMeta,
  SpotMetaAndAssetCtxs,
} from './hyperliquid.types';
import {
  parseClearinghouseState,
  parseFills,
  parseLeaderboard,
  parseRecentTrades,
  parseSpotClearinghouseState,
  parseVaultAddresses,
} from './hyperliquid-user.schema';
import { extraWeight, HYPERLIQUID_PROVIDER, hyperliquidWeightBudget, isHistoryType, requestWeight } from './weight-budget';

/** The stats documents are tens of MB; the info timeout is sized for small bodies, so they get at least this. */
export const STATS_MIN_TIMEOUT_MS = 60_000;

type InfoBody = { type: string } & Record<string, unknown>;

/**
 * Typed client of the Hyperliquid info API (`POST /info`) and the stats host, for the jobs. Every info
 * request is fetched with a timeout and retries, each attempt first spending its weight from the budget
 * shared by all replicas, then shape-checked. Failures are logged here and thrown as UpstreamError;
 * nothing half-parsed is returned. An empty or missing `dex` means the native perp dex.
 */
@Injectable()
export class HyperliquidInfoClient implements OnModuleDestroy {
  /** Exposed so tests and jobs can see what was spent; the pool itself lives in the KV store. */
  readonly budget: RequestBudget;
  private readonly http: UpstreamHttpClient;

  constructor(
    private readonly config: ConfigService<AppConfig, true>,
    @Inject(KV_STORE) kv: KvStore,
  ) {
    const { weightPerMinute, historyWeightShare, timeoutMs, maxRetries } = this.settings;
    this.budget = hyperliquidWeightBudget({ kv, weightPerMinute, historySharePercent: historyWeightShare });
    this.http = new UpstreamHttpClient({
      provider: HYPERLIQUID_PROVIDER,
      timeoutMs,
      maxRetries,
      budget: this.budget,
      logger: new Logger(HyperliquidInfoClient.name),
    });
  }

  /**
   * In the first phase of shutdown (before any hook waits for the jobs): calls waiting for weight or for the
   * upstream give up at once, so jobs end promptly. Their errors are aborts, logged by no one.
   */
  onModuleDestroy(): void {
    this.http.close();
  }

  allMids(dex?: string): Promise<AllMids> {
    return this.info({ type: 'allMids', ...dexField(dex) }, parseAllMids);
  }

  meta(dex?: string): Promise<PerpMeta> {
    return this.info({ type: 'meta', ...dexField(dex) }, parseMeta);
  }

  metaAndAssetCtxs(dex?: string): Promise<PerpMetaAndAssetCtxs> {
    return this.info({ type: 'metaAndAssetCtxs', ...dexField(dex) }, parseMetaAndAssetCtxs);
  }

  spotMeta(): Promise<SpotMeta> {
    return this.info({ type: 'spotMeta' }, parseSpotMeta);
  }

  spotMetaAndAssetCtxs(): Promise<SpotMetaAndAssetCtxs> {
    return this.info({ type: 'spotMetaAndAssetCtxs' }, parseSpotMetaAndAssetCtxs);
  }

  perpDexs(): Promise<PerpDex[]> {
    return this.info({ type: 'perpDexs' }, parsePerpDexs);
  }

  /** One dex per call: each HIP-3 dex margins separately. */
  clearinghouseState(user: string, dex?: string): Promise<ClearinghouseState> {
    return this.info({ type: 'clearinghouseState', user, ...dexField(dex) }, parseClearinghouseState);
  }

  spotClearinghouseState(user: string): Promise<SpotClearinghouseState> {
    return this.info({ type: 'spotClearinghouseState', user }, parseSpotClearinghouseState);
  }

  /** The user's latest fills, at most 2,000 (the upstream's page); older ones only through userFillsByTime. */
  userFills(user: string): Promise<Fill[]> {
    return this.info({ type: 'userFills', user }, parseFills, (fills) => fills.length);
  }

  /** At most 2,000 fills per call (the upstream's page); page by moving startTime past the last fill. */
  userFillsByTime(user: string, startTime: number, endTime?: number): Promise<Fill[]> {
    const body: InfoBody = { type: 'userFillsByTime', user, startTime, ...(endTime === undefined ? {} : { endTime }) };
    return this.info(body, parseFills, (fills) => fills.length);
  }

  recentTrades(coin: string): Promise<RecentTrade[]> {
    return this.info({ type: 'recentTrades', coin }, parseRecentTrades, (trades) => trades.length);
  }

  outcomeMeta(): Promise<OutcomeMeta> {
    return this.info({ type: 'outcomeMeta' }, parseOutcomeMeta);
  }

  /**
   * One unpaginated document (~25 MB, ~30k rows), read into memory and parsed in one go: simpler than a
   * streaming parser and affordable once per leaderboard run. Not weight-budgeted (a different host).
   */
  leaderboard(): Promise<LeaderboardRow[]> {
    return this.stats('leaderboard', parseLeaderboard);
  }

  /** Vault addresses (lower-cased), to exclude from the leaderboard; not weight-budgeted. */
  vaultAddresses(): Promise<string[]> {
    return this.stats('vaults', parseVaultAddresses);
  }

  private get settings(): AppConfig['hyperliquid'] {
    return this.config.get('hyperliquid', { infer: true });
  }

  private info<T>(body: InfoBody, parse: (json: unknown, label: string) => T, itemCount?: (result: T) => number): Promise<T> {
    const { type } = body;
    return this.http.request({
      label: type,
      url: this.settings.infoUrl,
      method: 'POST',
      body,
      weight: requestWeight(type),
      history: isHistoryType(type),
      parse: (json) => parse(json, type),
      // The upstream charges the per-item surcharge once it knows the size; recorded so the next spend sees it.
      surcharge: itemCount && ((result) => extraWeight(type, itemCount(result))),
    });
  }

  private stats<T>(document: 'leaderboard' | 'vaults', parse: (json: unknown, label: string) => T): Promise<T> {
    const { statsUrl, timeoutMs } = this.settings;
    return this.http.request({
      label: document,
      url: `${statsUrl}/${document}`,
      timeoutMs: Math.max(timeoutMs, STATS_MIN_TIMEOUT_MS),
      // Another host, not weighed against the info budget.
      weight: 0,
      parse: (json) => parse(json, document),
    });
  }
}

/** `dex` is sent only for a builder-deployed dex; the native dex is the request without it. */
function dexField(dex: string | undefined): { dex?: string } {
  return dex ? { dex } : {};
}
