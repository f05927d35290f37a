import { Injectable } from '@nestjs/common';

/**
 * The time the backend's sign-in decisions are made at: challenge expiry, token issue and expiry. One
 * instance per app, so a test moves every one of those decisions at once by replacing `now`.
 */
@Injectable()
export class AuthClock {
  now(): number {
    return Date.now();
  }
}
