import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { send } from './http-io';
import {
  prefixClash,
  ProtocolName,
  registeredProtocols,
  simulatorEnv,
  SIMULATOR_PROTOCOLS,
  startProtocols,
  StartedProtocols,
  underPrefix,
} from './protocol-registry';
import { DEFAULT_HOST, DEFAULT_WALLETS, SimulatorOptions, simulatorUrl } from './simulator-options';
import { StartedProtocol } from './simulator-protocol';
import { INFO_PATH, STATS_PATH } from './hyperliquid/hyperliquid-handler';
import { SimWorld } from './world/sim-world';

export interface RunningSimulator {
  port: number;
  host: string;
  url: string;
  /** The service settings that point its providers here (what `--print-env` prints for this port). */
  env: Record<string, string>;
  /** Value for HYPERLIQUID_INFO_URL. */
  infoUrl: string;
  /** Value for HYPERLIQUID_STATS_URL. */
  statsUrl: string;
  world: SimWorld;
  protocols: StartedProtocols;
  close(): Promise<void>;
}

/**
 * The local upstream simulator: one world, one HTTP server on one port, each request routed by its path prefix
 * to the protocol that owns it. Usable in-process by tests, the demo and benchmarks.
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const clash = prefixClash(registeredProtocols());
  if (clash) throw new Error(`simulator: ${clash}`);
  const host = options.host ?? DEFAULT_HOST;
  const clock = options.clock ?? Date.now;
  const world = new SimWorld({
    wallets: options.wallets ?? DEFAULT_WALLETS,
    seed: options.seed,
    priceStepMs: options.priceStepMs,
    serviceBuilder: options.serviceBuilder,
  });
  const protocols = startProtocols((protocol) => protocol.start({ world, options, clock }));
  const routes: Array<{ prefix: string; protocol: StartedProtocol }> = Object.entries(SIMULATOR_PROTOCOLS).flatMap(([name, protocol]) =>
    protocol.prefixes.map((prefix) => ({ prefix, protocol: protocols[name as ProtocolName] })),
  );

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const route = routes.find(({ prefix }) => underPrefix(path, prefix));
    const work = route ? route.protocol.handle(req, res, path) : Promise.resolve(send(res, 404, 'Not Found', 'text/plain'));
    work.catch((error: unknown) => {
      // Never crash the simulator on one bad request; answer like an upstream's internal error.
      process.stderr.write(`simulator: ${error instanceof Error ? error.stack : String(error)}\n`);
      if (!res.headersSent) send(res, 500, 'null', 'application/json');
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = simulatorUrl(host, port);
  return {
    port,
    host,
    url,
    env: simulatorEnv(url, options),
    infoUrl: `${url}${INFO_PATH}`,
    statsUrl: `${url}${STATS_PATH}`,
    world,
    protocols,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
