import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { compressFrameSync } from 'lz4-napi';
import { finishedDays } from '../../src/modules/builder-fills/builder-fills.job';
import { builderFillsCsv } from '../../src/simulator/hyperliquid/builder-fills';
import { STATS_PATH } from '../../src/simulator/hyperliquid/hyperliquid-handler';
import { startSimulator } from '../../src/simulator/simulator.server';

const KEEP_ALIVE_MS = 65_000;
// The user is the second column of the file (BUILDER_FILLS_HEADER).
const USER_COLUMN = 1;

/** A service-builder trader of the simulated month and how many fills the month's files give it. */
export interface EconomyTrader {
  address: string;
  fills: number;
}

export interface UpstreamReport {
  port: number;
  /** The settings that point the app at the simulator (/info) and at the prebuilt files (stats host). */
  env: Record<string, string>;
  builder: string;
  /** Wallets that trade through the service's builder. */
  clients: number;
  worldMs: number;
  files: { days: number; fills: number; csvBytes: number; lz4Bytes: number; buildMs: number };
  /** The heaviest trader first, then the others chosen across the ranking, heaviest to lightest. */
  traders: EconomyTrader[];
}

/**
 * The upstream side of `npm run bench:economy`, in a process of its own: the simulator with BENCH_WALLETS
 * wallets, its clock pinned at BENCH_ECONOMY_NOW, every request budget off. The month's daily files of the
 * service's builder are built first, with the simulator's own code, and served from memory by a second small
 * server at the stats host's path, as a bucket serves stored files: the simulator builds a file on request
 * (about a second of CPU for 10,000 wallets) and keeps only 64 MB of them, which would put the upstream's
 * generation on the ingestion's clock. While building, the fills of each user are counted, to name the
 * heaviest trader and BENCH_ECONOMY_ACCOUNTS - 1 others spread over the ranking. Prints
 * `BENCH_READY {json}` (UpstreamReport) and serves until stopped.
 */
export async function serveEconomyUpstream(): Promise<void> {
  const now = Number(process.env.BENCH_ECONOMY_NOW);
  const days = Number(process.env.BENCH_ECONOMY_DAYS);
  const accounts = Number(process.env.BENCH_ECONOMY_ACCOUNTS);
  if (!Number.isFinite(now) || !(days > 0) || !(accounts > 0)) throw new Error('BENCH_ECONOMY_NOW, _DAYS and _ACCOUNTS must be set');
  const worldStarted = Date.now();
  const sim = await startSimulator({
    wallets: Number(process.env.BENCH_WALLETS),
    weightPerMinute: 0,
    coingeckoCallsPerMinute: 0,
    binanceWeightPerMinute: 0,
    yahooCallsPerMinute: 0,
    clock: () => now,
  });
  const worldMs = Date.now() - worldStarted;
  const builder = sim.world.builders.service;

  const files = new Map<string, Buffer>();
  const perUser = new Map<string, number>();
  const totals = { days: 0, fills: 0, csvBytes: 0, lz4Bytes: 0, buildMs: 0 };
  const buildStarted = Date.now();
  for (const day of finishedDays(now, days)) {
    const csv = builderFillsCsv({ world: sim.world, builder, dayStart: Date.parse(`${day}T00:00:00Z`) });
    if (csv === null) continue;
    const lines = csv.split('\n');
    // The header first, and a final newline.
    for (const line of lines.slice(1, -1)) {
      const user = line.split(',', USER_COLUMN + 1)[USER_COLUMN];
      perUser.set(user, (perUser.get(user) ?? 0) + 1);
    }
    const file = compressFrameSync(Buffer.from(csv));
    files.set(`${STATS_PATH}/builder_fills/${builder}/${day.replace(/-/g, '')}.csv.lz4`, file);
    totals.days += 1;
    totals.fills += lines.length - 2;
    totals.csvBytes += Buffer.byteLength(csv);
    totals.lz4Bytes += file.length;
  }
  totals.buildMs = Date.now() - buildStarted;

  const stats = createServer((req, res) => {
    const file = files.get((req.url ?? '/').split('?')[0]);
    // As the stats host: 403 for any file it does not have.
    res.writeHead(file ? 200 : 403, { 'content-type': file ? 'application/octet-stream' : 'application/xml' });
    res.end(file ?? '<Error><Code>AccessDenied</Code></Error>');
  });
  // As the simulator's: longer than any client keeps an idle connection, so a reused one is never closed under it.
  stats.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve) => stats.listen(0, '127.0.0.1', resolve));
  const statsPort = (stats.address() as AddressInfo).port;

  const ranked = [...perUser.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const picks = new Set([0]);
  for (let k = 1; k < accounts && k < ranked.length; k++) picks.add(Math.round((k * (ranked.length - 1)) / (accounts - 1)));
  const report: UpstreamReport = {
    port: sim.port,
    env: { ...sim.env, HYPERLIQUID_STATS_URL: `http://127.0.0.1:${statsPort}${STATS_PATH}` },
    builder,
    clients: sim.world.clientsOf(builder)?.length ?? 0,
    worldMs,
    files: totals,
    traders: [...picks].sort((a, b) => a - b).map((i) => ({ address: ranked[i][0], fills: ranked[i][1] })),
  };
  process.stdout.write(`BENCH_READY ${JSON.stringify(report)}\n`);
  const close = () => {
    stats.close();
    stats.closeAllConnections();
    void sim.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
}
