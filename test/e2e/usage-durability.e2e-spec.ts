import { Wallet } from 'ethers';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisKvStore } from '../../src/infra/kv/redis-kv.store';
import { UsageSyncService } from '../../src/modules/billing/usage-sync.service';
import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { get, PUBLIC } from '../support/http';
import { testConfig, uniqueKeyPrefix } from '../support/test-env';
import { freePort, embeddedEnv } from '../support/child-process';

const ROOT = join(__dirname, '..', '..');
// Each spawn compiles with ts-node (a few seconds); the embedded database opens in a few more.
const SPAWN_TIMEOUT_MS = 60_000;

interface UsageRow {
  endpoint: string;
  calls: number;
  credits: string;
}

/** The ops CLI on the data folder (no server running: PGlite has one process at a time). */
function cli(dataDir: string, args: string[]): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/cli/main.ts', ...args, '--json'], {
      cwd: ROOT,
      env: embeddedEnv(dataDir),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`cli ${args.join(' ')} exited with ${code}:\n${stdout}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop()!));
    });
  });
}

/** The real server process (src/main.ts) on the data folder, once it answers /health/ready. */
async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
    cwd: ROOT,
    env: embeddedEnv(dataDir, { PORT: String(port), HTTP_HOST: '127.0.0.1', HL_JOBS_ENABLED: 'false' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + SPAWN_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined);
    if (ready?.status === 200) return child;
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become ready in time:\n${output}`);
}

/** Ctrl-C, as a user stops it; resolves once the process has exited. */
function interrupt(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

/** Adds two /usage lists endpoint by endpoint. */
function sum(a: UsageRow[], b: UsageRow[]): UsageRow[] {
  const rows = new Map(a.map((r) => [r.endpoint, { ...r }]));
  for (const r of b) {
    const row = rows.get(r.endpoint);
    if (row) {
      row.calls += r.calls;
      row.credits = String(Number(row.credits) + Number(r.credits));
    } else rows.set(r.endpoint, { ...r });
  }
  return [...rows.values()].sort((x, y) => x.endpoint.localeCompare(y.endpoint));
}

describe('Usage durability', () => {
  describe('on the embedded default (in-process store, embedded PostgreSQL)', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mdapi-usage-'));
    let port: number;
    let server: ChildProcess | undefined;
    let key: string;

    const call = async (path: string) => {
      const res = await fetch(`http://127.0.0.1:${port}${PUBLIC}${path}`, { headers: { 'x-api-key': key } });
      return { status: res.status, body: (await res.json()) as { data: any } };
    };

    beforeAll(async () => {
      port = await freePort();
      const wallet = Wallet.createRandom().address;
      await cli(dataDir, ['account:create', '--wallet', wallet, '--tier', 'pro']);
      key = (await cli(dataDir, ['key:create', '--wallet', wallet])).key;
    }, 2 * SPAWN_TIMEOUT_MS);
    afterAll(async () => {
      if (server) await interrupt(server);
      rmSync(dataDir, { recursive: true, force: true });
    }, 30_000);

    it(
      'keeps /usage across restarts, and a call after a restart adds on top',
      async () => {
        server = await startServer(dataDir, port);
        for (const path of ['/account', '/account', '/account/credits', '/account/vip']) expect((await call(path)).status).toBe(200);
        // A failed call is taken back out of the meters (and refunded).
        expect((await call('/account/credits/transactions?limit=0')).status).toBe(400);
        const before = await call('/usage');
        expect(before.body.data).toEqual([
          { endpoint: 'account.credits', calls: 1, credits: '1' },
          { endpoint: 'account.summary', calls: 2, credits: '2' },
          { endpoint: 'account.vip', calls: 1, credits: '1' },
          { endpoint: 'usage.list', calls: 1, credits: '0' },
        ]);
        await interrupt(server);

        server = await startServer(dataDir, port);
        const afterRestart = await call('/usage');
        // The same history, plus the /usage call that read it.
        expect(afterRestart.body.data).toEqual(sum(before.body.data, [{ endpoint: 'usage.list', calls: 1, credits: '0' }]));
        expect((await call('/account/vip')).status).toBe(200);
        const afterCall = await call('/usage');
        expect(afterCall.body.data).toEqual(
          sum(afterRestart.body.data, [
            { endpoint: 'account.vip', calls: 1, credits: '1' },
            { endpoint: 'usage.list', calls: 1, credits: '0' },
          ]),
        );
        await interrupt(server);

        // Counts synced after the first restart are added once, not again at the next start.
        server = await startServer(dataDir, port);
        const third = await call('/usage');
        expect(third.body.data).toEqual(sum(afterCall.body.data, [{ endpoint: 'usage.list', calls: 1, credits: '0' }]));
      },
      4 * SPAWN_TIMEOUT_MS,
    );
  });

  describe('on PostgreSQL and Redis', () => {
    let t: TestApp;
    let keyPrefix: string;

    beforeAll(async () => {
      keyPrefix = uniqueKeyPrefix();
      // The timer stays out of the way: this test runs each sync itself.
      t = await createTestApp(testConfig({ REDIS_KEY_PREFIX: keyPrefix, USAGE_SYNC_INTERVAL_MS: '600000' }));
    });
    afterAll(async () => {
      const { client } = t.kv as RedisKvStore;
      await client.eval(`for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end`, 0, `${keyPrefix}*`);
      await t.close();
    });

    /** Everything Redis holds about usage for this app, as if Redis had lost its data (this app's prefix only). */
    async function loseUsageKeys(accountId: string): Promise<void> {
      const { client } = t.kv as RedisKvStore;
      const names = (await client.keys(`${keyPrefix}usage*`)).map((k) => k.slice(keyPrefix.length));
      expect(names.some((name) => name.includes(accountId))).toBe(true);
      await t.kv.del(...names);
    }

    it('adds the calls made after Redis lost its usage keys to the history synced before', async () => {
      const { key, account } = await makeAccount(t, { tier: 'pro' });
      for (const path of ['/account', '/account/credits', '/account/credits']) expect((await get(t, path, key)).status).toBe(200);
      const old = (await get(t, '/usage', key)).body.data as UsageRow[];
      await t.app.get(UsageSyncService).sync();

      const period = 0;
      await loseUsageKeys(account.id);
      for (const path of ['/account', '/account/vip']) expect((await get(t, path, key)).status).toBe(200);
      const now = await get(t, '/usage', key);

      expect(now.body.data).toEqual(
        sum(old, [
          { endpoint: 'account.summary', calls: 1, credits: '1' },
          { endpoint: 'account.vip', calls: 1, credits: '1' },
          { endpoint: 'usage.list', calls: 1, credits: '0' },
        ]),
      );
      // And the durable copy ends up with the same totals once synced.
      await t.app.get(UsageSyncService).sync();
      const rows = await t.db.query(
        `SELECT endpoint, calls::int AS calls, trim_scale(credits)::text AS credits FROM usage_counters WHERE account_id = $1 AND period = $2 ORDER BY endpoint`,
        [account.id, period],
      );
      expect(rows).toEqual(now.body.data);
    });
  });
});
