import { UpstreamFailure } from '../../common/errors/upstream-failure';

/**
 * Why an upstream call failed: the HTTP status, a timeout, a body we could not trust, the network, our own
 * request budget, the provider's open circuit (it stopped answering moments ago, so the call was not sent),
 * or the caller stopped waiting (a run or the process stopping: not the upstream's fault). A caller's
 * deadline (an AbortSignal.timeout) passing while the upstream has not answered is a timeout.
 */
export type UpstreamErrorKind = 'http' | 'timeout' | 'shape' | 'network' | 'budget' | 'circuit' | 'aborted';

export interface UpstreamErrorInit {
  provider: string;
  kind: UpstreamErrorKind;
  /** Safe to log: names the request and the problem, never a response body or a credential. */
  message: string;
  upstreamStatus?: number;
  cause?: unknown;
}

/**
 * The one error type `providers/` throws. A caller (a job's fan-out loop) logs it and counts the
 * failure; a half-parsed value never leaves the provider. The upstream's HTTP status is `upstreamStatus`,
 * never `status`: no code reading an exception's `status` may mistake it for ours.
 */
export class UpstreamError extends UpstreamFailure {
  readonly provider: string;
  readonly kind: UpstreamErrorKind;
  readonly upstreamStatus?: number;

  constructor({ provider, kind, message, upstreamStatus, cause }: UpstreamErrorInit) {
    super(`${provider}: ${message}`, cause === undefined ? undefined : { cause });
    // An abort carries the platform's name for one (isAbortError), so a fan-out stops instead of counting it.
    this.name = kind === 'aborted' ? 'AbortError' : 'UpstreamError';
    this.provider = provider;
    this.kind = kind;
    this.upstreamStatus = upstreamStatus;
  }

  /** 429, 5xx, timeouts and network failures may succeed on a later attempt; other 4xx and bad shapes will not. */
  get retryable(): boolean {
    if (this.kind === 'timeout' || this.kind === 'network') return true;
    const status = this.upstreamStatus;
    return this.kind === 'http' && status !== undefined && (status === 429 || status >= 500);
  }
}
