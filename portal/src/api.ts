import type { Envelope } from './types';

/** An error the page shows as it is: the server's `msg` names what was wrong. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'DELETE';
  body?: unknown;
  token?: string;
}

/** One call to the backend: the envelope's data, or an ApiError carrying its code and msg. */
export async function callApi<T>(path: string, { method = 'GET', body, token }: ApiRequest = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    // The token travels in the header only: no cookie, so nothing another site can make the browser send.
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store', credentials: 'omit' });
  } catch {
    throw new ApiError('NETWORK', 'network: the server could not be reached', 0);
  }
  const envelope = (await res.json().catch(() => undefined)) as Envelope<T> | undefined;
  if (!envelope || typeof envelope.code !== 'string') throw new ApiError('BAD_RESPONSE', `server: unexpected answer (HTTP ${res.status})`, res.status);
  if (!res.ok || envelope.code !== '0') throw new ApiError(envelope.code, envelope.msg, res.status);
  return envelope.data;
}
