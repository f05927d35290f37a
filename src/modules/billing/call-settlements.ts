import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { billingSettlementsFailed, billingSettlementsPending } from '../../infra/metrics/metrics';

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;
/** Room left before a record expires: no try starts later than this before it (a try takes at most seconds). */
const RECORD_MARGIN_MS = 30_000;
/** At shutdown, one more round for whatever is still pending, no longer than this. */
const SHUTDOWN_ROUND_MS = 3_000;

/** What a settlement is: a name for the log, the call's request id (on its log lines as a field) and its try. */
interface SettlementParams<T> {
  label: string;
  requestId?: string;
  run: () => Promise<T>;
  /** How long the record that makes running it again harmless lives. */
  recordTtlMs: number;
}

interface Settlement {
  label: string;
  requestId?: string;
  run: () => Promise<unknown>;
  firstTriedAt: number;
  /** No try starts this long after the first: the record that makes a repeat harmless lives about as long. */
  triesForMs: number;
  delayMs: number;
  timer?: NodeJS.Timeout;
}

/**
 * The settlements of calls whose billing must be undone: the void of a call that failed after its
 * admission, the give-up of an admission batch that got no reply. Each is safe to repeat (its script or
 * statement is idempotent) for as long as the record that makes it so lives, so it is tried at once and,
 * while the credits store does not answer, again in the background with a growing pause until it lands:
 * a failed call is never left charged because Redis or PostgreSQL blinked. What is still pending when the
 * process stops, or when its record would expire, is tried no more, logged by name and counted
 * (billing_settlements_failed_total): those calls stay charged.
 */
@Injectable()
export class CallSettlements implements OnApplicationShutdown {
  private readonly logger = new Logger(CallSettlements.name);
  private readonly pending = new Set<Settlement>();
  private idleWaiters: Array<() => void> = [];

  /**
   * Runs `run` now and answers its result, or undefined when it failed; then it keeps retrying in the
   * background. `label` names it in the log ("void of <request id>"); no try starts after `recordTtlMs`
   * (less a margin), and one still unlanded then is counted as failed. Pending (and waited for at
   * shutdown) from its first try.
   */
  async settle<T>({ label, requestId, run, recordTtlMs }: SettlementParams<T>): Promise<T | undefined> {
    const s: Settlement = { label, requestId, run, firstTriedAt: Date.now(), triesForMs: recordTtlMs - RECORD_MARGIN_MS, delayMs: FIRST_RETRY_MS };
    this.track(s);
    try {
      const result = await run();
      this.done(s);
      return result;
    } catch (error) {
      if (!this.pending.has(s)) return undefined;
      this.logger.warn(logLine(s, `${label} did not land (${(error as Error).message}); retrying until it does`));
      this.schedule(s);
      return undefined;
    }
  }

  /** Runs `run` in the background only (the caller does not wait for it), retried like settle's. */
  later({ label, requestId, run, recordTtlMs }: SettlementParams<unknown>): void {
    const s: Settlement = { label, requestId, run, firstTriedAt: Date.now(), triesForMs: recordTtlMs - RECORD_MARGIN_MS, delayMs: 0 };
    this.track(s);
    this.schedule(s);
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /** Resolves once nothing is pending (at once when nothing is). */
  idle(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async onApplicationShutdown(): Promise<void> {
    const left = [...this.pending];
    for (const s of left) clearTimeout(s.timer);
    const round = Promise.all(left.map((s) => this.attempt(s, { final: true })));
    await Promise.race([round, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_ROUND_MS).unref())]);
    for (const s of [...this.pending]) this.fail(s, 'the process stopped first');
  }

  private track(s: Settlement): void {
    this.pending.add(s);
    billingSettlementsPending.set(this.pending.size);
  }

  private schedule(s: Settlement): void {
    s.timer = setTimeout(() => void this.attempt(s, { final: false }), s.delayMs);
    s.timer.unref();
  }

  private async attempt(s: Settlement, { final }: { final: boolean }): Promise<void> {
    if (!this.pending.has(s)) return;
    if (Date.now() - s.firstTriedAt >= s.triesForMs) return this.fail(s, 'it was retried for as long as its record lives');
    try {
      await s.run();
    } catch {
      if (final) return;
      s.delayMs = Math.min(MAX_RETRY_MS, Math.max(FIRST_RETRY_MS, s.delayMs * 2));
      return this.schedule(s);
    }
    this.done(s);
  }

  private fail(s: Settlement, why: string): void {
    billingSettlementsFailed.inc();
    this.logger.error(logLine(s, `${s.label} never landed (${why}): that call stays charged`));
    this.done(s);
  }

  private done(s: Settlement): void {
    if (!this.pending.delete(s)) return;
    billingSettlementsPending.set(this.pending.size);
    if (this.pending.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** The call's request id as a field when it has one, so a search by the id the client got finds the line. */
function logLine(s: Settlement, msg: string): string | { msg: string; requestId: string } {
  return s.requestId === undefined ? msg : { msg, requestId: s.requestId };
}
