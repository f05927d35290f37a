import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiCallerCache } from '../../modules/account/api-caller.cache';
import { AdmitStatus } from '../billing/admission.scripts';
import { AdmissionService } from '../billing/admission.service';
import { microToCredits } from '../billing/credit-units';
import { PUBLIC_API_PREFIX } from '../decorators/public-endpoint.decorator';
import { AppError } from '../errors/app-error';
import { ERROR_STATUS, ErrorCode, errorCodeForStatus } from '../errors/error-code';
import { RateLimitHeaders, rateLimitedError } from '../guards/rate-limit-headers';
import { clientAddress } from '../http/client-address';
import { rawRequest, RequestState, requestState } from '../http/request-state';
import { HEADER, setResponseHeaders } from '../http/response-headers';
import { BODY_TOO_LARGE, bodyErrorMessage } from '../http/body-error-message';

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

const PUBLIC_PATH = `/${PUBLIC_API_PREFIX}/`;
const PAYLOAD_TOO_LARGE = 413;
const UNSUPPORTED_MEDIA_TYPE = 415;

/**
 * The only @Catch(): every error leaves as the contract envelope with a status that fits its code.
 * Unexpected errors are logged with their stack and answered 500 INTERNAL_ERROR with nothing inside.
 */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorEnvelopeFilter');
  private readonly rateLimitHeaders = new RateLimitHeaders();

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly admissions: AdmissionService,
    private readonly callers: ApiCallerCache,
  ) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    const req = http.getRequest();
    const res = http.getResponse();
    const state = requestState(req);
    let answer = this.describe(exception, state.requestId);
    const headers: Record<string, string> = { [HEADER.requestId]: state.requestId, [HEADER.creditsCost]: '0' };
    // A call admitted and then failed (validation, handler) is refunded before its error goes out: never billed.
    if (state.admission) await this.admissions.settleFailure(state.admission, state.requestId);
    // The framework answered before any route's guard ran (unknown route, another method, a refused body).
    else if (!state.keyLookedUp && !(exception instanceof AppError) && isPublicApiPath(req)) answer = await this.windowUnrouted(req, res, state, answer, headers);
    const balance = state.admission?.balanceMicro;
    if (balance) headers[HEADER.creditsRemaining] = microToCredits(balance);
    // A body refused unread would otherwise keep the connection waiting for bytes nobody will read.
    if (answer.status === PAYLOAD_TOO_LARGE) headers.connection = 'close';
    setResponseHeaders(this.adapterHost.httpAdapter, res, { ...answer.headers, ...headers });
    this.adapterHost.httpAdapter.reply(res, answer.body, answer.status);
  }

  /**
   * A request of a known key that no route answered is still a request of that key (contract 8.1): it
   * counts in the key's window and carries its rate-limit headers, but is not billed nor counted in
   * /usage; over the cap it is answered 429 like any other. Without a known key (none, unknown, or a
   * client refused further lookups) the framework's answer stands, without rate-limit headers.
   */
  private async windowUnrouted(req: unknown, res: unknown, state: RequestState, answer: Answer, headers: Record<string, string>): Promise<Answer> {
    const header = rawRequest(req).headers['x-api-key'];
    if (typeof header !== 'string' || !header.trim()) return answer;
    let caller;
    try {
      caller = await this.callers.resolve(header.trim(), clientAddress(req));
    } catch {
      return answer;
    }
    if (!caller) return answer;
    const nowMs = Date.now();
    const result = await this.admissions.admitUnrouted({ caller, requestId: state.requestId, nowMs });
    if (this.adapterHost.httpAdapter.isHeadersSent(res)) return answer;
    this.rateLimitHeaders.set(this.adapterHost.httpAdapter, res, result, nowMs);
    if (result.balanceMicro !== null) headers[HEADER.creditsRemaining] = microToCredits(result.balanceMicro);
    return result.status === AdmitStatus.RATE_LIMITED ? this.describe(rateLimitedError(result, nowMs), state.requestId) : answer;
  }

  private describe(exception: unknown, requestId: string): Answer {
    if (exception instanceof AppError) {
      return { status: ERROR_STATUS[exception.code], body: envelope(exception.code, exception.message), headers: { ...exception.headers } };
    }
    const status = httpStatusOf(exception);
    if (status !== undefined && status < 500) {
      const code = errorCodeForStatus(status);
      return { status, body: envelope(code, clientMessage(exception, code, status)), headers: {} };
    }
    this.logger.error(`request ${requestId} failed`, exception instanceof Error ? exception.stack : String(exception));
    return { status: 500, body: envelope(ErrorCode.INTERNAL_ERROR, 'internal error'), headers: {} };
  }
}

function envelope(code: ErrorCode, msg: string): ErrorBody {
  return { code, msg, data: null };
}

function isPublicApiPath(req: unknown): boolean {
  const url = rawRequest(req).url ?? '';
  return url.startsWith(PUBLIC_PATH) || url === PUBLIC_PATH.slice(0, -1) || url.startsWith(`${PUBLIC_PATH.slice(0, -1)}?`);
}

/** Framework errors (Nest HttpException, body-parser and Fastify errors) carry their status in one of these. */
function httpStatusOf(exception: unknown): number | undefined {
  if (exception instanceof HttpException) return exception.getStatus();
  const candidate = exception as { status?: unknown; statusCode?: unknown };
  const status = candidate?.statusCode ?? candidate?.status;
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
