// `npm run demo`: the service on whatever the environment configures (the embedded default on a fresh
// clone: PGlite under ./data and the in-process store), plus a demo Pro account and a fresh key printed
// with a curl line. The key is shown once; every run issues a new one and revokes the oldest of its own
// beyond five (never a key the user made).
// Unless HYPERLIQUID_INFO_URL is set, it also starts the local upstream simulator and points the service's
// real Hyperliquid, CoinGecko, Binance and Yahoo clients at it, so the /hl and Markets endpoints fill up with
// no internet. It listens on 127.0.0.1
// unless HTTP_HOST says otherwise.
import 'reflect-metadata';
import { INestApplication, Logger } from '@nestjs/common';
import { createApp } from '../src/app.factory';
import { handleProcessSignals } from '../src/app.setup';
import { AppConfig, loadAppConfig, loadDotEnv } from '../src/config/app.config';
import { acquireEmbeddedLock } from '../src/infra/database/embedded-lock';
import { AccountAdminService } from '../src/modules/account/account-admin.service';
import { RunningSimulator, startSimulator } from '../src/simulator/simulator.server';
import { issueDemoKey } from './demo-keys';
import { DemoTrader, startDemoTrader } from './demo-trader';

const DEMO_WALLET = '0xde00000000000000000000000000000000000001';
/**
 * The simulator is the demo's own upstream, so its weight limit is the demo's to choose, and it is set well
 * above what the demo's jobs spend. On the embedded database jobs take turns, so one job waiting for weight
 * holds every other job (the snapshot too) until the next minute's window: at mainnet's 1,200 a single round
 * of recent trades (~50 coins at weight ~22) spends most of a minute, and the first fills reads (7 days each)
 * more, which is why snapshots came every 1-2 minutes instead of every 15 s.
 */
export const DEMO_WEIGHT_PER_MINUTE = 60_000;
/**
 * Demo settings applied unless the environment sets them: polling rounds of the size the raised budget
 * sustains, and a 10 s snapshot so a newcomer sees the lists grow. Read once, before the configuration loads.
 */
const DEMO_DEFAULTS: Record<string, string> = {
  HL_POLL_BATCH: '150',
  HL_POLL_CONCURRENCY: '16',
  HL_SNAPSHOT_INTERVAL_MS: '10000',
  // The outlets and then every stock's headline feed read within the first minutes (40 feeds a run, so the
  // embedded database's one connection is never held for long), and new items analysed soon after.
  NEWS_FEED_REQUESTS_PER_MINUTE: '120',
  NEWS_INGEST_INTERVAL_MS: '20000',
  NEWS_ANALYSE_INTERVAL_MS: '10000',
  NEWS_ANALYSIS_BATCH: '500',
  // A stand-in distributor contract, so the demo's claim rounds can name one (nothing is deployed there).
  REWARDS_DISTRIBUTOR_ADDRESS: '0x000000000000000000000000000000000000d157',
};

export interface RunningDemo {
  app: INestApplication;
  config: AppConfig;
  simulator?: RunningSimulator;
  /** The demo key, shown once. */
  key: string;
  /** With the simulator: a simulated trader with fees, points, referees, a claim round and an OPC. */
  trader?: DemoTrader;
  /** Where the service answers, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  close(): Promise<void>;
}

/** The demo without its banner: simulator (unless an upstream is configured), server, jobs, account and key. */
export async function startDemo(env: NodeJS.ProcessEnv = process.env): Promise<RunningDemo> {
  // The demo is for one person on one machine: never on every interface unless asked.
  env.HTTP_HOST ??= '127.0.0.1';
  let simulator: RunningSimulator | undefined;
  if (!env.HYPERLIQUID_INFO_URL) {
    simulator = await startSimulator({ wallets: Number(env.DEMO_SIM_WALLETS ?? 500), weightPerMinute: DEMO_WEIGHT_PER_MINUTE });
    // What `npm run simulator -- --print-env` prints for this simulator, applied over the environment: its weight
    // limit included, since a copied .env's mainnet figure would only slow the demo down.
    Object.assign(env, simulator.env);
    for (const [name, value] of Object.entries(DEMO_DEFAULTS)) env[name] ??= value;
  }
  const config = loadAppConfig(env);
  const lock = config.database.url ? undefined : acquireEmbeddedLock(config.database.dataDir, 'server');
  let app: INestApplication | undefined;
  try {
    app = await createApp(config);
    await app.listen(config.http.port, config.http.host);
    const admin = app.get(AccountAdminService);
    if (!(await admin.listAccounts()).some((a) => a.walletAddress === DEMO_WALLET)) await admin.createAccount({ wallet: DEMO_WALLET, tier: 'pro' });
    const key = await issueDemoKey(app, DEMO_WALLET);
    const trader = simulator ? await startDemoTrader(app, simulator, config.economy.backfillDays) : undefined;
    const { port } = app.getHttpServer().address() as { port: number };
    const host = config.http.host === '0.0.0.0' || config.http.host === '::' ? 'localhost' : config.http.host;
    const started = app;
    return {
      app: started,
      config,
      simulator,
      key,
      trader,
      baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
      close: async () => {
        await started.close();
        await simulator?.close();
        lock?.release();
      },
    };
  } catch (error) {
    await app?.close().catch(() => undefined);
    await simulator?.close();
    lock?.release();
    throw error;
  }
}

async function main() {
  loadDotEnv();
  const { config, simulator, key, trader, baseUrl: base } = await startDemo();
  // One line per stop signal, and SIGHUP (a closed terminal) does not end the demo, as with the server.
  handleProcessSignals();
  const storage = config.database.url ? 'PostgreSQL' : `embedded PostgreSQL in ${config.database.dataDir}`;
  const kv = config.redis.url ? 'Redis' : 'the in-process store';
  const upstream = simulator ? `the local upstream simulator at ${simulator.url}` : config.hyperliquid.infoUrl;
  const markets = simulator ? 'the same simulator (CoinGecko, Binance and Yahoo protocols)' : 'the configured vendors';
  process.stdout.write(
    [
      '',
      `Service running at ${base} (${config.http.adapter}; ${storage}; ${kv})`,
      `Exchange-chain data from ${upstream}; the /hl lists fill within about a minute.`,
      `Market data from ${markets}; /assets and the other Markets routes fill within about a minute.`,
      `News from ${simulator ? "the simulator's feeds" : 'the configured feeds'}, analysed by the ${config.news.analysisVendor} analyser; /news fills within a minute or two.`,
      `Demo account ${DEMO_WALLET} (Pro). Its API key, shown only now:`,
      '',
      `  DEMO_API_KEY=${key}`,
      '',
      'Try it:',
      `  curl -s -H "x-api-key: ${key}" ${base}/api/public/v1/account`,
      `  curl -s -H "x-api-key: ${key}" "${base}/api/public/v1/hl/perp/holders?coin=BTC&limit=5"`,
      `  curl -s -H "x-api-key: ${key}" "${base}/api/public/v1/assets?type=ALL&limit=5"`,
      `  curl -s -H "x-api-key: ${key}" "${base}/api/public/v1/news?limit=5"`,
      `Swagger UI: ${base}/docs   (Authorize with the key above)`,
      `Developer portal: ${base}/portal   (sign in with a browser wallet; keys, usage, watchlists, notifications)`,
      ...(trader
        ? [
            `Simulated trader ${trader.address}: trades through the service's builder, with two referees and an OPC.`,
            `  Its fees, points, referrals, a claim round and OPC revenue fill within a minute. Its API key, shown only now:`,
            `  DEMO_TRADER_API_KEY=${trader.key}`,
            `  curl -s -H "x-api-key: ${trader.key}" ${base}/api/public/v1/account/points`,
            `  To sign in to the portal as this trader, import its test key into a browser wallet (never fund it): ${trader.privateKey}`,
            `  More traders' test keys: npm run -s simulator -- --print-wallets 5`,
          ]
        : []),
      `Job status: npm run cli -- job:status   (asks this server while it holds the embedded database)`,
      'Stop with Ctrl+C.',
      '',
    ].join('\n'),
  );
}

if (require.main === module) {
  main().catch((error) => {
    new Logger('Demo').error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
