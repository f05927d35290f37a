import { createServer, Server, Socket, connect } from 'node:net';

/** What the proxy does with a connection's traffic. */
export type FaultMode = 'pass' | 'blackhole';

interface Pair {
  client: Socket;
  upstream: Socket;
}

/**
 * A TCP proxy between the service and one of its servers (Redis, PostgreSQL) that a test can break on cue:
 * lose the next reply and cut that connection (the command ran, its answer never arrived), cut every
 * connection, refuse new ones (the server is down), or swallow traffic (the server hangs). Faults act on
 * the wire, so the service's real clients meet them exactly as they would a real outage.
 */
export class FaultProxy {
  private readonly pairs = new Set<Pair>();
  private server: Server;
  private mode: FaultMode = 'pass';
  private repliesToDrop = 0;
  /** Replies dropped so far: the test waits on this rather than on the clock. */
  droppedReplies = 0;

  private constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
    server: Server,
  ) {
    this.server = server;
  }

  /** Listens on a free port of 127.0.0.1 and forwards to `target`. */
  static async start(target: { host: string; port: number }, port = 0): Promise<FaultProxy> {
    const holder: { proxy?: FaultProxy } = {};
    const server = createServer((client) => holder.proxy!.accept(client));
    await listen(server, port);
    holder.proxy = new FaultProxy(target, (server.address() as { port: number }).port, server);
    return holder.proxy;
  }

  /** `redis://host:port/...` or `postgres://user@host:port/db` with this proxy in place of the server. */
  urlFor(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  get openConnections(): number {
    return this.pairs.size;
  }

  setMode(mode: FaultMode): void {
    this.mode = mode;
  }

  /** The next `count` replies from the server are lost, and the connection each came on is cut with it. */
  dropNextReplies(count = 1): void {
    this.repliesToDrop += count;
  }

  /** Cuts every open connection (both sides at once, as a failing network or a dying server would). */
  cutAll(): void {
    for (const pair of this.pairs) this.cut(pair);
  }

  /** The server "goes down": every connection is cut and new ones are refused until `restore`. */
  async refuse(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Accepts connections again, on the same port. */
  async restore(): Promise<void> {
    this.mode = 'pass';
    if (this.server.listening) return;
    this.server = createServer((client) => this.accept(client));
    await listen(this.server, this.port);
  }

  async close(): Promise<void> {
    this.cutAll();
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    const pair: Pair = { client, upstream };
    this.pairs.add(pair);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.on('data', (chunk) => {
      if (this.mode === 'pass') upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (this.repliesToDrop > 0) {
        this.repliesToDrop -= 1;
        this.droppedReplies += 1;
        this.cut(pair);
        return;
      }
      if (this.mode === 'pass') client.write(chunk);
    });
    const end = () => this.cut(pair);
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  }

  private cut(pair: Pair): void {
    if (!this.pairs.delete(pair)) return;
    pair.client.destroy();
    pair.upstream.destroy();
  }
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}
