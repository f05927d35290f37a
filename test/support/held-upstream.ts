import { createServer, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { vendorFixtureText } from './vendor-fixtures';

/** A billed route (under /api/public/v1) that waits on CoinGecko's /global on a cache miss. */
export const HELD_CALL = '/global-stats';

/** CoinGecko as far as /global goes, answering only when the test lets it. */
export class HeldUpstream {
  private server?: Server;
  private readonly held: ServerResponse[] = [];
  private onArrival?: () => void;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      if (!req.url?.startsWith('/global')) return void res.writeHead(404).end();
      this.held.push(res);
      this.onArrival?.();
    });
    await new Promise<void>((done) => this.server!.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once a call is waiting here. */
  arrived(): Promise<void> {
    return this.held.length > 0 ? Promise.resolve() : new Promise((resolve) => (this.onArrival = resolve));
  }

  release(): void {
    for (const res of this.held.splice(0)) res.writeHead(200, { 'content-type': 'application/json' }).end(vendorFixtureText('coingecko', 'global.2025.json'));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}
