import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { AdmitCall, admitBatch } from '../src/modules/billing/admit-batch';
import { BillingKeys } from '../src/modules/billing/billing-keys';
import { RedisKvStore } from '../src/infra/kv/redis-kv.store';
import { envNumber } from './lib/env';

/**
 * `npm run bench:admission-redis`: Redis's own work per admission, in instructions, which unlike time does
 * not move with the machine's phase (valgrind's callgrind counts them; runs of the same code agree within
 * ~0.5 %, the rest being Redis's timer work). A private redis-server runs under callgrind on a Unix socket
 * of its own; BENCH_ADMIT_ACCOUNTS accounts are seeded
 * through admitBatch (the full script, once each), the counters are zeroed, then BENCH_ADMIT_BATCHES
 * batches of BENCH_ADMIT_BATCH one-credit calls on a Max key go through admitBatch exactly as
 * AdmissionService sends them (the billed route's steady state: the fast script decides every call).
 * Prints Redis's instructions per batch and per admission. Needs valgrind and redis-server; about 10 s.
 */
const ACCOUNTS = envNumber('BENCH_ADMIT_ACCOUNTS', 1040);
const BATCH = envNumber('BENCH_ADMIT_BATCH', 17);
const BATCHES = envNumber('BENCH_ADMIT_BATCHES', 600);
const MAX_CAP = 600;
const COST_MICRO = 1_000_000;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const accountId = (i: number) => `0193b7a4-0000-7000-8000-${hex(i, 12)}`;

function call(account: number, request: number, nowMs: number): AdmitCall {
  return {
    window: BillingKeys.window(`key-${account}`, Math.floor(nowMs / 60_000)),
    credits: BillingKeys.credits(accountId(account)),
    params: {
      cap: MAX_CAP,
      costMicro: COST_MICRO,
      seedMicro: '100000000000000',
      epoch: 1,
      seedPeriod: 0,
      period: 0,
      quotaMicro: '100000000000000',
      requestId: `0193b7a4-1111-7000-8000-${hex(request, 12)}`,
      accountId: accountId(account),
      endpoint: 'account.credits',
      nowMs,
      billable: true,
    },
  };
}

let batches = 0;
const seed = async () => ({ balanceMicro: '100000000000000', epoch: 1, period: 0 });

/** Total instructions (Ir) of the callgrind dumps in `dir` that are not in `known` (written by the last dump). */
function instructionsSince(dir: string, known: Set<string>): number {
  let total = 0;
  for (const file of readdirSync(dir)) {
    if (known.has(file)) continue;
    const summary = /^summary:\s+(\d+)/m.exec(readFileSync(join(dir, file), 'utf8'));
    if (summary) total += Number(summary[1]);
  }
  return total;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'admit-cg-'));
  // A Unix socket of its own (no TCP port to find free); Redis's user-space work per command is the same.
  const socket = join(dir, 'redis.sock');
  const redis = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${join(dir, 'cg.%p')}`,
      'redis-server',
      '--port',
      '0',
      '--unixsocket',
      socket,
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => {
    redis.once('exit', () => resolve());
    // No valgrind (or no redis-server under it): the ping below gives up and says so.
    redis.once('error', () => resolve());
  });
  const alive = () => redis.exitCode === null && redis.signalCode === null && redis.pid !== undefined;
  const kv = new RedisKvStore(new Redis({ path: socket, keyPrefix: 'bench:', maxRetriesPerRequest: 2 }));
  // Refused connections while valgrind starts Redis: the ping below retries.
  kv.client.on('error', () => undefined);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await kv.ping();
        break;
      } catch (error) {
        if (attempt > 100 || !alive())
          throw new Error(`no Redis under callgrind (valgrind and redis-server installed?): ${(error as Error).message}`, { cause: error });
        await sleep(300);
      }
    }
    const nowMs = Date.now();
    let request = 0;
    for (let a = 0; a < ACCOUNTS; a++) await admitBatch(kv, `seed-${a}`, [call(a, request++, nowMs)], seed);

    execFileSync('callgrind_control', ['--zero', String(redis.pid)], { stdio: 'ignore' });
    const known = new Set(readdirSync(dir));
    for (let b = 0; b < BATCHES; b++) {
      const calls = Array.from({ length: BATCH }, () => call(request % ACCOUNTS, request++, nowMs));
      const replies = (await admitBatch(kv, `bench-${batches++}`, calls, seed)) ?? [];
      if (replies.length !== calls.length || replies.some((reply) => reply[0] !== 1))
        throw new Error(`batch ${b}: a call was not admitted (${JSON.stringify(replies)})`);
    }
    execFileSync('callgrind_control', ['--dump', String(redis.pid)], { stdio: 'ignore' });
    // callgrind_control exits 0 even when it reached no process: a figure needs exactly the one new dump.
    const dumps = readdirSync(dir).filter((file) => !known.has(file) && file.startsWith('cg.'));
    const instructions = instructionsSince(dir, known);
    if (!alive() || dumps.length !== 1 || !(instructions > 0)) throw new Error(`callgrind gave no dump of the measured batches (${dumps.length} new files)`);
    const calls = BATCH * BATCHES;
    console.log(`accounts ${ACCOUNTS}, ${BATCHES} batches of ${BATCH} admissions (one credit each, Max keys)`);
    console.log(`Redis instructions per batch:     ${Math.round(instructions / BATCHES).toLocaleString('en-US')}`);
    console.log(`Redis instructions per admission: ${Math.round(instructions / calls).toLocaleString('en-US')}`);
  } finally {
    await kv.close().catch(() => undefined);
    if (alive()) redis.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
