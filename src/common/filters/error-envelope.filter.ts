import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { AdmissionService } from '../billing/admission.service';
import { microToCredits } from '../billing/credit-units';
import { AppError } from '../errors/app-error';
import { ERROR_STATUS, ErrorCode, errorCodeForStatus } from '../errors/error-code';
import { requestState } from '../http/request-state';
import { HEADER, setResponseHeaders } from '../http/response-headers';

interface ErrorBody {
  code: ErrorCode;
  msg: string;
  data: null;
}

/**
 * The only @Catch(): every error leaves as the contract envelope with a status that fits its code.
 * Unexpected errors are logged with their stack and answered 500 INTERNAL_ERROR with nothing inside.
 */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorEnvelopeFilter');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly admissions: AdmissionService,
  ) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    const req = http.getRequest();
    const res = http.getResponse();
    const state = requestState(req);
    const { status, body, headers } = this.describe(exception, state.requestId);
    // A call admitted and then failed (validation, handler) is refunded before its error goes out: never billed.
    if (state.admission) await this.admissions.settleFailure(state.admission, state.requestId);
    const balance = state.admission?.balanceMicro;
    setResponseHeaders(this.adapterHost.httpAdapter, res, {
      ...headers,
      [HEADER.requestId]: state.requestId,
      [HEADER.creditsCost]: '0',
      ...(balance ? { [HEADER.creditsRemaining]: microToCredits(balance) } : {}),
    });
    this.adapterHost.httpAdapter.reply(res, body, status);
  }

  private describe(exception: unknown, requestId: string): { status: number; body: ErrorBody; headers: Record<string, string> } {
    if (exception instanceof AppError) {
      return { status: ERROR_STATUS[exception.code], body: envelope(exception.code, exception.message), headers: { ...exception.headers } };
    }
    const status = httpStatusOf(exception);
    if (status !== undefined && status < 500) {
      const code = errorCodeForStatus(status);
      return { status, body: envelope(code, clientMessage(exception, code)), headers: {} };
    }
    this.logger.error(`request ${requestId} failed`, exception instanceof Error ? exception.stack : String(exception));
    return { status: 500, body: envelope(ErrorCode.INTERNAL_ERROR, 'internal error'), headers: {} };
  }
}

function envelope(code: ErrorCode, msg: string): ErrorBody {
  return { code, msg, data: null };
}

/** Framework errors (Nest HttpException, body-parser and Fastify errors) carry their status in one of these. */
function httpStatusOf(exception: unknown): number | undefined {
  if (exception instanceof HttpException) return exception.getStatus();
  const candidate = exception as { status?: unknown; statusCode?: unknown };
  const status = candidate?.statusCode ?? candidate?.status;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : undefined;
}

function clientMessage(exception: unknown, code: ErrorCode): string {
  if (code === ErrorCode.NOT_FOUND) return 'route not found';
  if (exception instanceof HttpException) {
    const response = exception.getResponse();
    const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
    return Array.isArray(message) ? message.join('; ') : String(message ?? exception.message);
  }
  if (exception instanceof SyntaxError) return 'body: malformed JSON';
  return exception instanceof Error ? exception.message : 'bad request';
}
