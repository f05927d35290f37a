// `npm run demo`: the service on whatever the environment configures (the embedded default on a fresh
// clone: PGlite under ./data and the in-process store), plus a demo Pro account and a fresh key printed
// with a curl line. The key is shown once; every run issues a new one and revokes the oldest beyond five.
// Unless HYPERLIQUID_INFO_URL is set, it also starts the local upstream simulator and points the service's
// real Hyperliquid client at it, so the /hl endpoints fill up with no internet.
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from '../src/app.factory';
import { loadAppConfig, loadDotEnv } from '../src/config/app.config';
import { acquireEmbeddedLock } from '../src/infra/database/embedded-lock';
import { AccountAdminService, MAX_ACTIVE_KEYS } from '../src/modules/account/account-admin.service';
import { startSimulator } from '../src/simulator/simulator.server';

const DEMO_WALLET = '0xde00000000000000000000000000000000000001';

async function main() {
  loadDotEnv();
  let simulator: Awaited<ReturnType<typeof startSimulator>> | undefined;
  if (!process.env.HYPERLIQUID_INFO_URL) {
    simulator = await startSimulator({ wallets: Number(process.env.DEMO_SIM_WALLETS ?? 500), weightPerMinute: 1200 });
    process.env.HYPERLIQUID_INFO_URL = simulator.infoUrl;
    process.env.HYPERLIQUID_STATS_URL = simulator.statsUrl;
    // Small polling rounds, so on the embedded database (where jobs take turns) snapshots publish early.
    process.env.HL_POLL_BATCH ??= '50';
  }
  const config = loadAppConfig();
  if (!config.database.url) acquireEmbeddedLock(config.database.dataDir, 'server');
  const app = await createApp(config);
  await app.listen(config.http.port, '0.0.0.0');

  const admin = app.get(AccountAdminService);
  const existing = (await admin.listAccounts()).find((a) => a.walletAddress === DEMO_WALLET);
  if (!existing) await admin.createAccount({ wallet: DEMO_WALLET, tier: 'pro' });
  const active = (await admin.listKeys({ wallet: DEMO_WALLET })).filter((k) => !k.revokedAt);
  for (const stale of active.slice(0, Math.max(0, active.length - (MAX_ACTIVE_KEYS - 1)))) {
    await admin.revokeKey({ prefix: stale.prefix });
  }
  const { key } = await admin.createKey({ wallet: DEMO_WALLET });

  const base = `http://localhost:${config.http.port}`;
  const storage = config.database.url ? 'PostgreSQL' : `embedded PostgreSQL in ${config.database.dataDir}`;
  const kv = config.redis.url ? 'Redis' : 'the in-process store';
  const upstream = simulator ? `the local Hyperliquid simulator at ${simulator.url}` : config.hyperliquid.infoUrl;
  process.stdout.write(
    [
      '',
      `Service running at ${base} (${config.http.adapter}; ${storage}; ${kv})`,
      `Exchange-chain data from ${upstream}; the first snapshot is published within about a minute.`,
      `Demo account ${DEMO_WALLET} (Pro). Its API key, shown only now:`,
      '',
      `  DEMO_API_KEY=${key}`,
      '',
      'Try it:',
      `  curl -s -H "x-api-key: ${key}" ${base}/api/public/v1/account`,
      `  curl -s -H "x-api-key: ${key}" "${base}/api/public/v1/hl/perp/holders?coin=BTC&limit=5"`,
      `Swagger UI: ${base}/docs   (Authorize with the key above)`,
      'Stop with Ctrl+C.',
      '',
    ].join('\n'),
  );
}

main().catch((error) => {
  new Logger('Demo').error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
