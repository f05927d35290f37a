import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { createApp } from '../../src/app.factory';
import { loadAppConfig } from '../../src/config/app.config';
import { AccountAdminService } from '../../src/modules/account/account-admin.service';

/**
 * The real application (createApp: same modules, guards, interceptors, filter as production) on real
 * PostgreSQL and Redis, plus BENCH_KEYS fresh Max accounts with one key each. Many keys because the
 * product's per-key cap (600 requests per clock minute on Max) is far below what a benchmark sends; the
 * load generator rotates over them so no request is ever rate-limited and each still runs the whole
 * pipeline (key cache, one admission Lua call, hold, batched commit, ledger flush to PostgreSQL).
 */
const CREATE_CONCURRENCY = 8;

async function main(): Promise<void> {
  const keyCount = Number(process.env.BENCH_KEYS ?? '1');
  const config = loadAppConfig({
    // Pass-through so knobs such as API_KEY_CACHE_TTL_MS can be tried from the shell.
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'error',
    PORT: '0',
    HTTP_ADAPTER: process.env.HTTP_ADAPTER === 'fastify' ? 'fastify' : 'express',
    DATABASE_URL: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: process.env.REDIS_KEY_PREFIX || `bench:${randomBytes(4).toString('hex')}:`,
    MIGRATIONS_RUN: 'true',
    // The store production runs (its Redis keeps an append-only file); this machine's Redis keeps none, so
    // auto would pick postgres. CREDITS_STORE=postgres measures that one. Ignored by versions without it.
    CREDITS_STORE: process.env.CREDITS_STORE || 'redis',
    // The market-data ingestion jobs are not on the request path, and a benchmark must not poll the
    // public Hyperliquid API; ignored by app versions that do not have them.
    HL_JOBS_ENABLED: 'false',
    // Production refuses the dev secrets; nothing here outlives the run.
    CURSOR_SECRET: randomBytes(24).toString('hex'),
    JWT_SECRET: randomBytes(24).toString('hex'),
    // Production wants the portal's sign-in domain; no wallet signs in during a benchmark.
    AUTH_SIWE_DOMAIN: process.env.AUTH_SIWE_DOMAIN || 'localhost',
  });

  const app = await createApp(config);
  await app.init();

  const admin = app.get(AccountAdminService);
  const keys: string[] = [];
  const wallets: string[] = [];
  let next = 0;
  // Max accounts start with the Max quota (100,000,000 credits), far more than the ~600 calls a key gets
  // here, so no credits:set is needed; one key per account because an account holds at most 5.
  const worker = async () => {
    while (next < keyCount) {
      next += 1;
      // A random lower-case address is valid for the service and avoids ethers' slow mnemonic derivation.
      const wallet = `0x${randomBytes(20).toString('hex')}`;
      await admin.createAccount({ wallet, tier: 'max' });
      const key = await admin.createKey({ wallet });
      keys.push(key.key);
      wallets.push(wallet);
    }
  };
  await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, worker));

  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  process.stdout.write(`BENCH_READY ${JSON.stringify({ port, adapter: config.http.adapter, keys, wallets })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`app server failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
