import { abortableDelay } from '../../common/async/abort';
import { KvScript, KvStore } from '../../infra/kv/kv-store';
import { upstreamBudgetRemaining } from '../../infra/metrics/metrics';
import { UpstreamError } from './upstream.error';

/** Waiters wake up to this much after a window opens, so replicas do not all hit the store at once. */
const WAKE_JITTER_MS = 250;

/** [admitted 0|1, weight used in the whole window after this call (or before it, when refused)]. */
export type SpendReply = [number, number];

/**
 * Spend weight from one fixed window, and for a history read also from the history class's window (KEYS[2],
 * capped at ARGV[5]), both checked and counted in one step. Each window admits when it is empty (so a
 * request heavier than its cap still goes through, alone, instead of waiting forever) or when the weight
 * fits under its cap; `force` records weight already spent upstream (the per-item surcharge) even past both.
 * KEYS: window[, history window]. ARGV: weight, cap, ttlMs, force ('1' or '0'), history cap.
 */
export const SPEND_WEIGHT_SCRIPT: KvScript<SpendReply> = {
  name: 'budget-weight-spend',
  lua: `
local weight = tonumber(ARGV[1])
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local historyUsed = 0
if KEYS[2] then historyUsed = tonumber(redis.call('GET', KEYS[2]) or '0') end
if ARGV[4] ~= '1' then
  if used > 0 and used + weight > tonumber(ARGV[2]) then return {0, used} end
  if KEYS[2] and historyUsed > 0 and historyUsed + weight > tonumber(ARGV[5]) then return {0, used} end
end
local total = redis.call('INCRBY', KEYS[1], weight)
if used == 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
if KEYS[2] then
  redis.call('INCRBY', KEYS[2], weight)
  if historyUsed == 0 then redis.call('PEXPIRE', KEYS[2], ARGV[3]) end
end
return {1, total}
`,
  local(data, [key, historyKey], [weightArg, capArg, ttlMs, force, historyCapArg]) {
    const weight = Number(weightArg);
    const used = Number(data.get(key) ?? '0');
    const historyUsed = historyKey ? Number(data.get(historyKey) ?? '0') : 0;
    if (force !== '1') {
      if (used > 0 && used + weight > Number(capArg)) return [0, used];
      if (historyKey && historyUsed > 0 && historyUsed + weight > Number(historyCapArg)) return [0, used];
    }
    const total = data.incrBy(key, weight);
    if (used === 0) data.pexpire(key, Number(ttlMs));
    if (historyKey) {
      data.incrBy(historyKey, weight);
      if (historyUsed === 0) data.pexpire(historyKey, Number(ttlMs));
    }
    return [1, total];
  },
};

export interface RequestBudgetOptions {
  kv: KvStore;
  /** Names the pool in its KV keys and metrics: the provider it protects. */
  provider: string;
  /** Weight the upstream allows per window (a request costs 1 unless the vendor weighs them); 0 turns budgeting off. */
  weightPerWindow: number;
  windowMs: number;
  /** Percent of weightPerWindow that history reads may spend (0-100); 100, the default, adds no cap of their own. */
  historySharePercent?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export interface SpendOptions {
  signal?: AbortSignal;
  /** Give up with UpstreamError kind 'budget' instead of waiting longer than this. */
  maxWaitMs?: number;
  /** A history read: spends from the history share as well as from the whole budget. */
  history?: boolean;
}

/**
 * An upstream's rate limit as one pool shared by every replica and job: a fixed window in the KV store
 * (`budget:<provider>:<windowIndex>`). History reads (those whose weight grows with the response) also count
 * in `budget:<provider>:history:<windowIndex>`, capped at their share, so they never take the weight the
 * other reads need. Windows follow each replica's wall clock; a little skew between replicas only moves a
 * few requests into the neighbouring window.
 */
export class RequestBudget {
  readonly provider: string;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly historyCap: number;
  private waiters = 0;

  constructor(private readonly options: RequestBudgetOptions) {
    this.provider = options.provider;
    this.windowMs = options.windowMs;
    this.historyCap = Math.floor((options.weightPerWindow * (options.historySharePercent ?? 100)) / 100);
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? abortableDelay;
    this.random = options.random ?? Math.random;
  }

  /** Spends in this process now sleeping until a window has room: why a job runs slower than its cadence. */
  get waiting(): number {
    return this.waiters;
  }

  get weightPerWindow(): number {
    return this.options.weightPerWindow;
  }

  get unlimited(): boolean {
    return this.options.weightPerWindow <= 0;
  }

  windowKey(at = this.now()): string {
    return `budget:${this.provider}:${Math.floor(at / this.windowMs)}`;
  }

  historyWindowKey(at = this.now()): string {
    return `budget:${this.provider}:history:${Math.floor(at / this.windowMs)}`;
  }

  /** Resolves once `weight` is spent in the current window, sleeping until the next window when it does not fit. */
  async spend(weight: number, { signal, maxWaitMs, history = false }: SpendOptions = {}): Promise<void> {
    if (this.unlimited || weight <= 0) return;
    const startedAt = this.now();
    for (;;) {
      const at = this.now();
      const [admitted] = await this.run({ weight, at, force: false, history });
      if (admitted === 1) return;
      const wakeInMs = (Math.floor(at / this.windowMs) + 1) * this.windowMs - at + Math.floor(this.random() * WAKE_JITTER_MS);
      if (maxWaitMs !== undefined && at + wakeInMs - startedAt > maxWaitMs) {
        throw this.budgetError(`weight ${weight} does not fit the budget within ${maxWaitMs} ms`);
      }
      this.waiters += 1;
      try {
        await this.sleep(wakeInMs, signal);
      } catch {
        throw this.abortedError();
      } finally {
        this.waiters -= 1;
      }
      if (signal?.aborted) throw this.abortedError();
    }
  }

  /**
   * Records weight the upstream has already charged (a per-item surcharge), without waiting; a history
   * read's surcharge counts against the history share too, so its next reads wait for it.
   */
  async charge(weight: number, { history = false }: { history?: boolean } = {}): Promise<void> {
    if (this.unlimited || weight <= 0) return;
    await this.run({ weight, at: this.now(), force: true, history });
  }

  private async run({ weight, at, force, history }: { weight: number; at: number; force: boolean; history: boolean }): Promise<SpendReply> {
    const keys = history ? [this.windowKey(at), this.historyWindowKey(at)] : [this.windowKey(at)];
    let reply: SpendReply;
    try {
      reply = await this.options.kv.run(SPEND_WEIGHT_SCRIPT, keys, [
        weight,
        this.options.weightPerWindow,
        this.windowMs * 2,
        force ? '1' : '0',
        this.historyCap,
      ]);
    } catch (err) {
      throw new UpstreamError({ provider: this.provider, kind: 'budget', message: 'request budget store unavailable', cause: err });
    }
    const used = Number(reply[1]);
    upstreamBudgetRemaining.set({ provider: this.provider }, Math.max(0, this.options.weightPerWindow - used));
    return [Number(reply[0]), used];
  }

  private abortedError(): UpstreamError {
    return new UpstreamError({ provider: this.provider, kind: 'aborted', message: 'aborted while waiting for request budget' });
  }

  private budgetError(message: string): UpstreamError {
    return new UpstreamError({ provider: this.provider, kind: 'budget', message });
  }
}
