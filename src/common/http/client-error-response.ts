import { STATUS_CODES, ServerResponse } from 'node:http';
import { Duplex } from 'node:stream';
import { ErrorCode, errorCodeForStatus } from '../errors/error-code';
import { uuidV7 } from './request-state';
import { HEADER } from './response-headers';

/** Node's HTTP parser errors, by the status node itself would answer, and what to tell the client. */
function describe(error: NodeJS.ErrnoException): { status: number; msg: string } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, msg: 'headers: larger than the server accepts' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, msg: 'body: chunk extensions larger than the server accepts' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, msg: 'request: not received in time' };
    default:
      return { status: 400, msg: 'request: malformed HTTP request' };
  }
}

/**
 * The server's 'clientError' listener (Fastify's clientErrorHandler): what node's HTTP layer refuses
 * before any framework sees a request (headers too large, a request not received in time, a malformed
 * request line) is answered in the envelope with a request id, as everything else is, instead of node's
 * bare status line. Like node's own handler, it writes only when no response of this socket has begun,
 * and then closes the connection: the parser cannot go on after such an error.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // The client is gone, or part of a response was already written: nothing sensible can follow.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, msg } = describe(error);
  const code: ErrorCode = errorCodeForStatus(status);
  const body = JSON.stringify({ code, msg, data: null });
  socket.end(
    [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(body)}`,
      `${HEADER.requestId}: ${uuidV7()}`,
      `${HEADER.creditsCost}: 0`,
      'connection: close',
      '',
      body,
    ].join('\r\n'),
  );
  // end() half-closes once written; a client that never reads must not keep the socket.
  socket.once('finish', () => socket.destroy());
}
