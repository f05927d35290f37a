/**
 * Why an upstream call failed: the HTTP status, a timeout, a body we could not trust, the network, our own
 * weight budget, or the caller stopped waiting (a run or the process stopping: not the upstream's fault).
 */
export type UpstreamErrorKind = 'http' | 'timeout' | 'shape' | 'network' | 'budget' | 'aborted';

export interface UpstreamErrorInit {
  provider: string;
  kind: UpstreamErrorKind;
  /** Safe to log: names the request and the problem, never a response body or a credential. */
  message: string;
  status?: number;
  cause?: unknown;
}

/**
 * The one error type `providers/` throws. A caller (a job's fan-out loop) logs it and counts the
 * failure; a half-parsed value never leaves the provider.
 */
export class UpstreamError extends Error {
  readonly provider: string;
  readonly kind: UpstreamErrorKind;
  readonly status?: number;

  constructor({ provider, kind, message, status, cause }: UpstreamErrorInit) {
    super(`${provider}: ${message}`, cause === undefined ? undefined : { cause });
    // An abort carries the platform's name for one (isAbortError), so a fan-out stops instead of counting it.
    this.name = kind === 'aborted' ? 'AbortError' : 'UpstreamError';
    this.provider = provider;
    this.kind = kind;
    this.status = status;
  }

  /** 429, 5xx, timeouts and network failures may succeed on a later attempt; other 4xx and bad shapes will not. */
  get retryable(): boolean {
    if (this.kind === 'timeout' || this.kind === 'network') return true;
    return this.kind === 'http' && this.status !== undefined && (this.status === 429 || this.status >= 500);
  }
}
