import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { AppError } from '../errors/app-error';
import { ERROR_STATUS, ErrorCode, errorCodeForStatus } from '../errors/error-code';
import { UpstreamFailure } from '../errors/upstream-failure';
import { requestState } from '../http/request-state';
import { HEADER, setResponseHeaders } from '../http/response-headers';
import { BODY_TOO_LARGE, bodyErrorMessage } from '../http/body-error-message';
import { isDependencyUnavailable } from '../errors/dependency-unavailable';
import { FAILED_CALL_SETTLER, FailedCallSettler } from './failed-call-settler';

interface ErrorBody {
  code: ErrorCode;
  msg: string;
  data: null;
}

interface Answer {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

const PAYLOAD_TOO_LARGE = 413;
/** During an outage every request fails the same way: one log line per this long says how many did. */
const OUTAGE_LOG_INTERVAL_MS = 10_000;
const UNSUPPORTED_MEDIA_TYPE = 415;
/** All a client learns of an upstream failure: never its host, status or body. */
export const UPSTREAM_UNAVAILABLE = 'upstream data source unavailable';

/**
 * The only @Catch(): every error leaves as the contract envelope with a status that fits its code. Only our
 * own errors choose the status: AppError by its code, the framework's (Nest HttpException, body-parser and
 * Fastify errors) by theirs. A failed upstream call is 502 MARKET_UPSTREAM_ERROR in our words, whatever the
 * upstream answered. Anything else is logged with its stack and answered 500 INTERNAL_ERROR with nothing inside.
 */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorEnvelopeFilter');
  private outage = { loggedAt: 0, since: 0 };

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(FAILED_CALL_SETTLER) private readonly settler: FailedCallSettler,
  ) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    const req = http.getRequest();
    const res = http.getResponse();
    const state = requestState(req);
    let answer = this.describe(exception, state.requestId);
    const headers: Record<string, string> = { [HEADER.requestId]: state.requestId, [HEADER.creditsCost]: '0' };
    // Refunded before its error goes out (never billed); an unrouted call of a key over its window becomes a 429.
    const replacement = await this.settler.settle({ exception, req, res, headers });
    if (replacement) answer = this.describe(replacement, state.requestId);
    // A body refused unread would otherwise keep the connection waiting for bytes nobody will read.
    if (answer.status === PAYLOAD_TOO_LARGE) headers.connection = 'close';
    setResponseHeaders(this.adapterHost.httpAdapter, res, { ...answer.headers, ...headers });
    this.adapterHost.httpAdapter.reply(res, answer.body, answer.status);
  }

  private describe(exception: unknown, requestId: string): Answer {
    if (exception instanceof AppError) {
      return { status: ERROR_STATUS[exception.code], body: envelope(exception.code, exception.message), headers: { ...exception.headers } };
    }
    // The provider's client logged the call where it failed, but without the request id outside
    // LOG_REQUEST_CONTEXT (and one failed load can answer several requests): this line names the request.
    if (exception instanceof UpstreamFailure) {
      this.logger.warn({ msg: `request ${requestId} answered 502: ${exception.message}`, requestId });
      return { status: ERROR_STATUS[ErrorCode.MARKET_UPSTREAM_ERROR], body: envelope(ErrorCode.MARKET_UPSTREAM_ERROR, UPSTREAM_UNAVAILABLE), headers: {} };
    }
    const status = frameworkStatusOf(exception);
    if (status !== undefined && status < 500) {
      const code = errorCodeForStatus(status);
      return { status, body: envelope(code, clientMessage(exception, code, status)), headers: {} };
    }
    // The database or the KV store could not be reached: the request was fine, retrying it will be too.
    if (isDependencyUnavailable(exception)) {
      this.logOutage(requestId, exception);
      const body = envelope(ErrorCode.SERVICE_UNAVAILABLE, 'service: a data store is unavailable for the moment; nothing was charged, retry shortly');
      return { status: ERROR_STATUS[ErrorCode.SERVICE_UNAVAILABLE], body, headers: { [HEADER.retryAfter]: '1' } };
    }
    this.logger.error({ msg: `request ${requestId} failed`, requestId }, exception instanceof Error ? exception.stack : String(exception));
    return { status: 500, body: envelope(ErrorCode.INTERNAL_ERROR, 'internal error'), headers: {} };
  }

  /** One WARN line for the first failure of an outage, then at most one per OUTAGE_LOG_INTERVAL_MS with the count. */
  private logOutage(requestId: string, exception: unknown): void {
    const now = Date.now();
    this.outage.since += 1;
    if (now - this.outage.loggedAt < OUTAGE_LOG_INTERVAL_MS) return;
    const message = exception instanceof Error ? exception.message : String(exception);
    this.logger.warn({
      msg: `request ${requestId} answered 503: a data store is unreachable (${message}); ${this.outage.since} such answers since the last line`,
      requestId,
    });
    this.outage = { loggedAt: now, since: 0 };
  }
}

function envelope(code: ErrorCode, msg: string): ErrorBody {
  return { code, msg, data: null };
}

/**
 * The status of an error the framework raised about the request itself, recognised by its own marks: a Nest
 * HttpException, a body-parser error (http-errors: `type` and `expose`), a Fastify error (an `FST_` code).
 * Any other error's `status` is not ours to repeat (a library's or an upstream's), so it has none here.
 */
function frameworkStatusOf(exception: unknown): number | undefined {
  if (exception instanceof HttpException) return exception.getStatus();
  if (typeof exception !== 'object' || exception === null) return undefined;
  const candidate = exception as { status?: unknown; statusCode?: unknown; type?: unknown; expose?: unknown; code?: unknown };
  const fromBodyParser = typeof candidate.type === 'string' && typeof candidate.expose === 'boolean';
  const fromFastify = typeof candidate.code === 'string' && candidate.code.startsWith('FST_');
  if (!fromBodyParser && !fromFastify) return undefined;
  const status = candidate.statusCode ?? candidate.status;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : undefined;
}

function clientMessage(exception: unknown, code: ErrorCode, status: number): string {
  if (code === ErrorCode.NOT_FOUND) return 'route not found';
  // Whichever step refused it (the declared length, a parser while reading), in the same words.
  if (status === PAYLOAD_TOO_LARGE) return BODY_TOO_LARGE;
  if (status === UNSUPPORTED_MEDIA_TYPE) return 'content-type: not supported';
  if (exception instanceof HttpException) {
    const response = exception.getResponse();
    const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
    return Array.isArray(message) ? message.join('; ') : String(message ?? exception.message);
  }
  // Never the parser's own words: V8's JSON message quotes the body back.
  return bodyErrorMessage(exception) ?? 'request: could not be processed';
}
