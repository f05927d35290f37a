import { once } from 'node:events';
import { createServer, Server, ServerResponse } from 'node:http';
import { AddressInfo, connect, Socket } from 'node:net';
import { HttpDrain } from './http-drain';

/** A client connection written and read byte for byte: what the server says, and when it closes the connection. */
interface RawClient {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
}

async function rawClient(port: number): Promise<RawClient> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  const closed = once(socket, 'close').then(() => undefined);
  await once(socket, 'connect');
  return { socket, received: () => received, closed };
}

function headerLines(text: string, name: string): string[] {
  return text.split('\r\n').filter((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`));
}

function connectOutcome(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** Polls a condition the server gives no event for, for at most a second. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 1000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within 1 s');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

// A drain that misses a connection leaves it open for the keep-alive timeout: fail in seconds instead.
jest.setTimeout(5_000);

const GET = (path: string) => `GET ${path} HTTP/1.1\r\nHost: test\r\n\r\n`;

describe(HttpDrain.name, () => {
  let server: Server;
  let port: number;
  /** The responses of /held, waiting for the test; their arrival resolves `heldArrived`. */
  let held: ServerResponse[];
  let heldArrived: Promise<void>;
  let onHeld: () => void;
  let events: string[];
  /** The server's side of each connection. */
  let accepted: Socket[];

  async function start(graceMs: number): Promise<HttpDrain> {
    held = [];
    events = [];
    accepted = [];
    heldArrived = new Promise((resolve) => (onHeld = resolve));
    server = createServer((req, res) => {
      res.once('finish', () => events.push(`answered ${req.url}`));
      if (req.url === '/held') {
        held.push(res);
        onHeld();
      } else if (req.url === '/stream') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('first part');
        held.push(res);
        onHeld();
      } else res.end('fast');
    });
    server.keepAliveTimeout = 65_000;
    server.on('connection', (socket: Socket) => accepted.push(socket));
    const sut = new HttpDrain(server, graceMs);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
    return sut;
  }

  afterEach(async () => {
    server.closeAllConnections();
    if (server.listening) await new Promise((resolve) => server.close(resolve));
  });

  it('closes an idle keep-alive connection at once and refuses new connections', async () => {
    const sut = await start(60_000);
    const idle = await rawClient(port);
    idle.socket.write(GET('/fast'));
    await once(idle.socket, 'data');
    expect(headerLines(idle.received(), 'connection')).toEqual(['Connection: keep-alive']);

    const drained = sut.drain();
    await idle.closed;
    expect(await connectOutcome(port)).toBe('ECONNREFUSED');
    expect(await drained).toEqual({ inFlight: 0, cut: 0 });
  });

  it('answers a request in flight with Connection: close, closes its connection after it, and resolves only then', async () => {
    const sut = await start(60_000);
    const busy = await rawClient(port);
    busy.socket.write(GET('/held'));
    await heldArrived;

    const drained = sut.drain().then((outcome) => {
      events.push('drained');
      return outcome;
    });
    held[0].end('held');
    await busy.closed;
    expect(headerLines(busy.received(), 'connection')).toEqual(['Connection: close']);
    expect(busy.received()).toMatch(/held$/);
    expect(await drained).toEqual({ inFlight: 1, cut: 0 });
    expect(events).toEqual(['answered /held', 'drained']);
  });

  it('closes the connection of an answer already under way once it ends', async () => {
    const sut = await start(60_000);
    const streaming = await rawClient(port);
    streaming.socket.write(GET('/stream'));
    await heldArrived;

    const drained = sut.drain();
    held[0].end(' last part');
    await streaming.closed;
    expect(streaming.received()).toContain('last part');
    expect(await drained).toEqual({ inFlight: 1, cut: 0 });
  });

  it('answers a request whose headers were still arriving with Connection: close', async () => {
    const sut = await start(60_000);
    const arriving = await rawClient(port);
    arriving.socket.write('GET /fast HTTP/1.1\r\nHost: test\r\n');
    // The server has read the first bytes (so the connection is not idle) before the drain begins.
    await until(() => accepted.length === 1 && accepted[0].bytesRead > 0);

    const drained = sut.drain();
    arriving.socket.write('\r\n');
    await arriving.closed;
    expect(headerLines(arriving.received(), 'connection')).toEqual(['Connection: close']);
    expect(await drained).toEqual({ inFlight: 0, cut: 0 });
  });

  it('cuts the connections still busy when the grace period ends', async () => {
    const sut = await start(50);
    const busy = await rawClient(port);
    busy.socket.write(GET('/held'));
    await heldArrived;

    expect(await sut.drain()).toEqual({ inFlight: 1, cut: 1 });
    await busy.closed;
    expect(busy.received()).toBe('');
  });

  it('drains once, however many times it is asked', async () => {
    const sut = await start(60_000);
    expect(sut.drain()).toBe(sut.drain());
    await sut.drain();
  });
});
