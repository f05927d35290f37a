import { Injectable, NestMiddleware } from '@nestjs/common';
import { IncomingMessage, ServerResponse } from 'node:http';
import { requestState } from '../http/request-state';

/** Gives every request an id before anything else runs, unknown routes and guard failures included. */
@Injectable()
export class RequestIdMiddleware implements NestMiddleware {
  use(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    res.setHeader('X-Request-Id', requestState(req).requestId);
    next();
  }
}
