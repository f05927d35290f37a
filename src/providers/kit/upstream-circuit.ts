import { Logger } from '@nestjs/common';
import { UpstreamError } from './upstream.error';

/**
 * How long a provider that stopped answering is not called, before one trial call asks it again: short next
 * to the hour a stale value may stand in, long enough that an outage costs a budgeted vendor two calls a
 * minute per replica.
 */
export const CIRCUIT_RETRY_MS = 30_000;

/** Statuses that speak for the whole service (rate limited, gateway, unavailable); any other is that request's answer. */
const SERVICE_WIDE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** What a call may do: go ahead, go ahead as the one trial of an open circuit (with no retries), or nothing. */
export type CircuitAdmission = 'call' | 'trial';

export interface UpstreamCircuitOptions {
  provider: string;
  /** Injectable clock, so tests move time past the interval instead of waiting it out. */
  now?: () => number;
  logger?: Logger;
}

/**
 * One provider's circuit breaker, per replica and in memory: each replica learns of an outage from its own
 * first failed call, which keeps every call free of a KV round trip and works when the KV store is down too.
 * A call that fails because the provider did not answer (network, timeout) or answered for the whole service
 * (429, 502, 503, 504), retries spent, opens it: for CIRCUIT_RETRY_MS every call fails at once with kind
 * 'circuit', sending nothing. Then one call goes through as a trial, without retries, while the others still
 * fail at once; any answer from the upstream closes the circuit, another such failure opens it again.
 * Failures that belong to one request (a 404, a 500, a bad body) leave it closed.
 */
export class UpstreamCircuit {
  private readonly now: () => number;
  private readonly logger: Logger;
  /** The failure that opened the circuit; null while closed. */
  private openedBy: UpstreamError | null = null;
  private retryAt = 0;
  private trialInFlight = false;

  constructor(private readonly options: UpstreamCircuitOptions) {
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? new Logger(`UpstreamCircuit:${options.provider}`);
  }

  /** Throws the kind 'circuit' error while the circuit is open and this call is not its trial. */
  admit(): CircuitAdmission {
    if (this.openedBy === null) return 'call';
    if (!this.trialInFlight && this.now() >= this.retryAt) {
      this.trialInFlight = true;
      return 'trial';
    }
    throw this.refusal(this.openedBy);
  }

  /** The upstream answered (a value, or an error of that request's own). */
  answered(admission: CircuitAdmission): void {
    if (admission === 'trial') this.trialInFlight = false;
    if (this.openedBy === null) return;
    this.openedBy = null;
    this.logger.log(`${this.options.provider} answers again: circuit closed`);
  }

  /** The call ended with `error`: the upstream's answer, the upstream's silence, or neither (a budget refusal, an abort). */
  failed(admission: CircuitAdmission, error: UpstreamError): void {
    if (!isServiceWide(error)) {
      if (error.kind === 'http' || error.kind === 'shape') return this.answered(admission);
      // Never reached the upstream, or stopped before it could answer: a trial is still owed.
      if (admission === 'trial') this.trialInFlight = false;
      return;
    }
    if (admission === 'trial') this.trialInFlight = false;
    const wasOpen = this.openedBy !== null;
    this.openedBy = error;
    this.retryAt = this.now() + CIRCUIT_RETRY_MS;
    if (!wasOpen) this.logger.warn(`${this.options.provider} is failing (${error.kind}): calls fail at once for ${CIRCUIT_RETRY_MS} ms, then one trial call`);
  }

  private refusal(openedBy: UpstreamError): UpstreamError {
    const { provider } = this.options;
    const inMs = Math.max(0, this.retryAt - this.now());
    return new UpstreamError({ provider, kind: 'circuit', message: `not called: failing (${openedBy.kind}), next trial in ${inMs} ms`, cause: openedBy });
  }
}

function isServiceWide(error: UpstreamError): boolean {
  if (error.kind === 'network' || error.kind === 'timeout') return true;
  return error.kind === 'http' && error.upstreamStatus !== undefined && SERVICE_WIDE_STATUSES.has(error.upstreamStatus);
}
