import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiCallerCache } from '../../modules/account/api-caller.cache';
import { publicRouteOf } from '../decorators/public-endpoint.decorator';
import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-code';
import { requestState } from '../http/request-state';

/** Step 1 of the public pipeline: x-api-key -> caller, or 401 INVALID_API_KEY. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly callers: ApiCallerCache,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!publicRouteOf(this.reflector, context)) return true;
    const req = context.switchToHttp().getRequest<{ headers: Record<string, string | string[] | undefined> }>();
    const header = req.headers['x-api-key'];
    const caller = await this.callers.resolve(typeof header === 'string' ? header.trim() : undefined);
    if (!caller) {
      throw new AppError(ErrorCode.INVALID_API_KEY, header ? 'x-api-key: unknown or revoked key' : 'x-api-key: header is required');
    }
    requestState(req).caller = caller;
    return true;
  }
}
