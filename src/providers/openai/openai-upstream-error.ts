import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { UpstreamError } from '../kit/upstream.error';

/** Names the analyser in errors, logs and metric labels, whichever OpenAI-compatible server answers. */
export const OPENAI_PROVIDER = 'openai';

/** An error `code` of OpenAI's error body ('model_not_found'): an identifier, so it is safe to log. */
const ERROR_CODE = /^[a-z0-9_.-]{1,64}$/i;
/** A socket error code of the network failure (ECONNREFUSED), not its text (which may name the host). */
const SOCKET_CODE = /^[A-Z][A-Z0-9_]{1,40}$/;

export interface FailedCallContext {
  /** The caller's signal joined with the process stopping: its abort is a stop, not a failure. */
  stop: AbortSignal;
  /** Fires when the whole call (attempts, the wait between them, the body) took too long. */
  deadline: AbortSignal;
  deadlineMs: number;
}

/**
 * What went wrong with one chat-completion request, in our words. The SDK's own messages carry the error
 * body, and its errors hold the body and headers, so neither the message nor the error becomes our cause.
 */
export function upstreamErrorOf(err: unknown, { stop, deadline, deadlineMs }: FailedCallContext): UpstreamError {
  if (err instanceof UpstreamError) return err;
  const provider = OPENAI_PROVIDER;
  if (stop.aborted) return new UpstreamError({ provider, kind: 'aborted', message: 'chat completion aborted by the caller' });
  if (deadline.aborted || err instanceof APIConnectionTimeoutError) {
    return new UpstreamError({ provider, kind: 'timeout', message: `no complete chat completion within ${deadlineMs} ms` });
  }
  if (err instanceof APIConnectionError) return new UpstreamError({ provider, kind: 'network', message: `network error (${socketCodeOf(err)})` });
  if (err instanceof APIError && typeof err.status === 'number') {
    const code = typeof err.code === 'string' && ERROR_CODE.test(err.code) ? ` (${err.code})` : '';
    return new UpstreamError({ provider, kind: 'http', upstreamStatus: err.status, message: `chat completion answered HTTP ${err.status}${code}` });
  }
  // The SDK parses a JSON content type itself and throws SyntaxError when the body is not JSON. By name, not
  // instanceof: the error is made in undici's realm, which need not be ours (as under Jest).
  if (errorName(err) === 'SyntaxError') return new UpstreamError({ provider, kind: 'shape', message: 'chat completion response is not JSON' });
  // Left: the body failing mid-read (undici's "terminated") and the like.
  return new UpstreamError({ provider, kind: 'network', message: `network error (${errorName(err) ?? 'unknown'})` });
}

function errorName(err: unknown): string | undefined {
  const name = typeof err === 'object' && err !== null ? (err as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : undefined;
}

function socketCodeOf(err: APIConnectionError): string {
  let cause: unknown = err.cause;
  for (let depth = 0; depth < 3 && typeof cause === 'object' && cause !== null; depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && SOCKET_CODE.test(code)) return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return 'connection failed';
}
