import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { clientAddress } from '../../common/http/client-address';
import { RateLimitHeaders } from '../access/rate-limit-headers';
import { AuthClock } from './auth-clock';
import { AuthRateLimiter } from './auth-rate-limiter';

/** The auth routes' per-client window, before anything else of theirs runs; its headers go on every answer. */
@Injectable()
export class AuthRateLimitGuard implements CanActivate {
  private readonly headers = new RateLimitHeaders();

  constructor(
    private readonly limiter: AuthRateLimiter,
    private readonly adapterHost: HttpAdapterHost,
    private readonly clock: AuthClock,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const [req, res] = context.getArgs<[unknown, unknown]>();
    const standing = await this.limiter.takeForClient(clientAddress(req));
    this.headers.set(this.adapterHost.httpAdapter, res, standing, this.clock.now());
    return true;
  }
}
