import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { HEADER, setResponseHeaders } from '../../common/http/response-headers';

/** Response data with the time its oldest figure left the upstream (epoch ms); null when it carries none (an empty page). */
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
 * upstream), which the contract's body has no room for. An answer with no upstream figure in it (an empty
 * page) is as old as the read that found nothing: 0. Through the adapter, so either one serves it.
 */
@Injectable()
export class DataAgeHeader {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  send<T>(res: unknown, { data, asOf }: Aged<T>, now = Date.now()): T {
    const age = asOf === null ? 0 : Math.max(0, Math.floor((now - asOf) / 1000));
    setResponseHeaders(this.adapterHost.httpAdapter, res, { [HEADER.age]: age });
    return data;
  }
}
