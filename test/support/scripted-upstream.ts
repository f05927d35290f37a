import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface StubReply {
  status?: number;
  body: string;
  headers?: Record<string, string>;
}

export interface StubRequest {
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
}

/**
 * A local HTTP upstream for client tests, on a free port: replies queued with `queued.push` go out once
 * each, in order, then `fallback` answers by path; every request is recorded.
 */
export class ScriptedUpstream {
  readonly received: StubRequest[] = [];
  readonly queued: StubReply[] = [];
  baseUrl = '';
  private server?: Server;

  constructor(private readonly fallback: (path: string) => StubReply) {}

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://stub');
      this.received.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers });
      const reply = this.queued.shift() ?? this.fallback(url.pathname);
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    this.server = server;
    this.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Paths and queries of the requests so far, without their headers. */
  requested(): Array<Pick<StubRequest, 'path' | 'query'>> {
    return this.received.map(({ path, query }) => ({ path, query }));
  }

  reset(): void {
    this.received.length = 0;
    this.queued.length = 0;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}
