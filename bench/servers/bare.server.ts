import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * The ceiling: plain node:http answering every request with the billed route's body bytes (passed in by
 * the orchestrator, captured from a real billed response), so the only difference to the app is the app.
 */
const body = Buffer.from(process.env.BENCH_BODY ?? '{"code":"0","msg":"success","data":{"balance":"99999999","resetAnchorAt":"2025-01-01T00:00:00.000Z"}}');
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };

const server = createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`BENCH_READY ${JSON.stringify({ port })}\n`);
});

// The orchestrator stops servers with SIGTERM; exit at once rather than wait for keep-alive sockets.
process.on('SIGTERM', () => process.exit(0));
