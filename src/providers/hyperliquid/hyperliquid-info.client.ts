import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { abortError } from '../../common/async/abort';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { fetchJson } from '../http/fetch-json';
import { UpstreamError } from '../http/upstream.error';
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
import { parseClearinghouseState, parseFills, parseLeaderboard, parseRecentTrades, parseSpotClearinghouseState, parseVaultAddresses } from './hyperliquid-user.schema';
import { extraWeight, HYPERLIQUID_PROVIDER, isHistoryType, requestWeight, WeightBudget } from './weight-budget';

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
  private readonly logger = new Logger(HyperliquidInfoClient.name);
  /**
   * Aborted at shutdown, in the first phase (before any hook waits for the jobs): calls waiting for weight or
   * for the upstream give up at once, so jobs end promptly. Their errors are aborts, logged by no one.
   */
  private readonly stopping = new AbortController();
  /** Exposed so tests and jobs can see what was spent; the pool itself lives in the KV store. */
  readonly budget: WeightBudget;

  constructor(
    private readonly config: ConfigService<AppConfig, true>,
    @Inject(KV_STORE) kv: KvStore,
  ) {
    const { weightPerMinute, historyWeightShare } = this.settings;
    this.budget = new WeightBudget({ kv, weightPerMinute, historySharePercent: historyWeightShare });
  }

  onModuleDestroy(): void {
    this.stopping.abort(abortError('shutting down'));
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

  private async info<T>(body: InfoBody, parse: (json: unknown, label: string) => T, itemCount?: (result: T) => number): Promise<T> {
    const { infoUrl, timeoutMs, maxRetries } = this.settings;
    const history = isHistoryType(body.type);
    return this.logFailure(body.type, async () => {
      const signal = this.stopping.signal;
      const json = await fetchJson({
        url: infoUrl,
        method: 'POST',
        body,
        timeoutMs,
        maxRetries,
        provider: HYPERLIQUID_PROVIDER,
        signal,
        onRetry: this.onRetry(body.type),
        // Every attempt, retries included, is a request the upstream weighs against our IP.
        beforeAttempt: () => this.budget.spend(requestWeight(body.type), { signal, history }),
      });
      const result = parse(json, body.type);
      // The upstream charges the per-item surcharge once it knows the size; record it so the next spend sees it.
      if (itemCount) await this.budget.charge(extraWeight(body.type, itemCount(result)), { history });
      return result;
    });
  }

  private async stats<T>(document: 'leaderboard' | 'vaults', parse: (json: unknown, label: string) => T): Promise<T> {
    const { statsUrl, timeoutMs, maxRetries } = this.settings;
    return this.logFailure(document, async () => {
      const json = await fetchJson({
        url: `${statsUrl}/${document}`,
        method: 'GET',
        timeoutMs: Math.max(timeoutMs, STATS_MIN_TIMEOUT_MS),
        maxRetries,
        provider: HYPERLIQUID_PROVIDER,
        signal: this.stopping.signal,
        onRetry: this.onRetry(document),
      });
      return parse(json, document);
    });
  }

  private async logFailure<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      // An abort is the caller stopping, not the upstream failing: nothing to report.
      if (err instanceof UpstreamError && err.kind !== 'aborted') this.logger.warn(`${what} failed (${err.kind}): ${err.message}`);
      throw err;
    }
  }

  private onRetry(what: string) {
    return ({ attempt, delayMs, error }: { attempt: number; delayMs: number; error: UpstreamError }) =>
      this.logger.debug(`${what} attempt ${attempt} failed (${error.message}); retrying in ${delayMs} ms`);
  }
}

/** `dex` is sent only for a builder-deployed dex; the native dex is the request without it. */
function dexField(dex: string | undefined): { dex?: string } {
  return dex ? { dex } : {};
}
