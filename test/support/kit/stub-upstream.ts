import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** What the stub answers: a status and JSON body, or never an answer (a timeout on our side). */
export type StubReply = { status: number; body: unknown; headers?: Record<string, string> } | 'hang';

/** A local HTTP upstream (node:http on port 0) whose next answers a test sets, counting the requests it gets. */
export interface StubUpstream {
  url: string;
  /** Host and port, as a leak would show them. */
  host: string;
  port: number;
  requests: string[];
  /** Answers every request from now on. */
  reply(reply: StubReply): void;
  close(): Promise<void>;
}

export async function startStubUpstream(): Promise<StubUpstream> {
  let current: StubReply = { status: 200, body: {} };
  const requests: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method} ${req.url}`);
    if (current === 'hang') return;
    res.writeHead(current.status, { 'content-type': 'application/json', ...current.headers });
    res.end(JSON.stringify(current.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    requests,
    reply: (reply) => (current = reply),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
