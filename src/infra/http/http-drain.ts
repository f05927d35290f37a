import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

/** What a drain found: the requests it let finish, and the connections still open when the grace period ended. */
export interface DrainOutcome {
  inFlight: number;
  cut: number;
}

/** Node's own link from a connection to the response it is writing (null between requests); closeIdleConnections reads it too. */
type HttpSocket = Socket & { _httpMessage?: ServerResponse | null };

/**
 * Stops an HTTP server the way a replica behind a load balancer must: at once it stops accepting
 * connections, closes the idle keep-alive ones and marks every answer still to be written
 * `Connection: close`, so clients take their next call to another replica; the requests in flight finish,
 * each closing its connection after its answer; whatever is still open after `graceMs` is closed.
 * node's server.close() alone does the first two only: an answer in flight would still say keep-alive, and
 * its connection would stay open until the keep-alive timeout, or for as long as its client keeps calling.
 */
export class HttpDrain {
  private readonly sockets = new Set<HttpSocket>();
  private readonly cutListeners: Array<(res: ServerResponse) => void> = [];
  private drained?: Promise<DrainOutcome>;

  /** Before the server listens: the connections are counted from the first one (once each, not per request). */
  constructor(
    private readonly server: Server,
    private readonly graceMs: number,
  ) {
    server.on('connection', (socket: HttpSocket) => {
      this.sockets.add(socket);
      socket.once('close', () => {
        this.sockets.delete(socket);
        const res = socket._httpMessage;
        if (res && !res.writableFinished) for (const listener of this.cutListeners) listener(res);
      });
    });
  }

  /**
   * `listener` hears of every answer whose connection closed before the whole of it was handed over (the
   * client went away, or the drain cut it). One listener per connection, none per request.
   */
  onResponseCut(listener: (res: ServerResponse) => void): void {
    this.cutListeners.push(listener);
  }

  /** Resolves once every connection is closed; a second call waits for the same drain. */
  drain(): Promise<DrainOutcome> {
    this.drained ??= this.run();
    return this.drained;
  }

  private async run(): Promise<DrainOutcome> {
    const { server } = this;
    // Before any other listener (the adapter's): a request that reaches the server from here on (the
    // connection was busy when the drain began) is answered with Connection: close too.
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => this.closeAfter(res));
    let inFlight = 0;
    for (const socket of this.sockets) {
      const res = socket._httpMessage;
      if (!res) continue;
      inFlight += 1;
      this.closeAfter(res);
    }
    // Stops accepting and closes the idle connections (node >= 19); calls back once every connection is closed.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<true>((resolve) => (timer = setTimeout(() => resolve(true), this.graceMs)));
    const timedOut = await Promise.race([closed.then(() => false), graceOver]);
    clearTimeout(timer);
    if (!timedOut) return { inFlight, cut: 0 };
    const cut = this.sockets.size;
    for (const socket of this.sockets) socket.destroy();
    await closed;
    return { inFlight, cut };
  }

  /**
   * An answer not yet started says Connection: close, and node closes its connection once it is sent. One
   * already under way (a stream) said keep-alive: its connection is closed as idle once the answer ends.
   */
  private closeAfter(res: ServerResponse): void {
    if (!res.headersSent) res.setHeader('Connection', 'close');
    else res.once('finish', () => setImmediate(() => this.server.closeIdleConnections()));
  }
}
