import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { HEADER, setResponseHeaders } from '../../common/http/response-headers';

/** Response data with the time its oldest figure left the upstream (epoch ms); null when it carries none. */
export interface Aged<T> {
  data: T;
  asOf: number | null;
}

/** The oldest of some times, ignoring the missing ones. */
export function oldestOf(...times: Array<number | null | undefined>): number | null {
  let oldest: number | null = null;
  for (const time of times) if (time !== null && time !== undefined && (oldest === null || time < oldest)) oldest = time;
  return oldest;
}

/**
 * Sends market data with the standard Age header (RFC 9111: whole seconds since the data left its
 * upstream), which the contract's body has no room for. Through the adapter, so either one serves it.
 */
@Injectable()
export class DataAgeHeader {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  send<T>(res: unknown, { data, asOf }: Aged<T>, now = Date.now()): T {
    if (asOf !== null) setResponseHeaders(this.adapterHost.httpAdapter, res, { [HEADER.age]: Math.max(0, Math.floor((now - asOf) / 1000)) });
    return data;
  }
}
