import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { killAll, ServerHandle, startServer } from './lib/children';
import { cleanUpRun } from './lib/cleanup';
import { primeKeys, processCpu } from './lib/load';

/**
 * `npm run bench:ab -- <checkout A> <checkout B> [rounds]`: which of two versions of the app costs less per
 * billed request on Fastify, measured so that this machine's noise cancels out. Both servers run at the same
 * time, pinned to the same core, each loaded by its own 50 connections; they live through the same slow and
 * fast phases of the machine, so the ratio of their CPU per request holds where back-to-back runs of
 * `npm run bench` swing by half. A checkout is a directory with this repository's layout and its
 * node_modules (e.g. `git worktree add ../base HEAD~1 && ln -s "$PWD/node_modules" ../base/`); append
 * `#NAME=value` to give one side an environment variable. The sides swap start order every round.
 * BENCH_AB_PATH loads another route, BENCH_AB_ADAPTER=express the Express servers.
 */
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
// Another route (with its query) for BENCH_AB_PATH, e.g. a holders page on the bench:hl database (DATABASE_URL).
const PATH = process.env.BENCH_AB_PATH || '/api/public/v1/account/credits';
const KEYS = 520;
const WARMUP_S = 3;
const DURATION_S = Number(process.env.BENCH_DURATION) || 15;

interface Side {
  label: string;
  dir: string;
  env: Record<string, string>;
}

function parseSide(spec: string): Side {
  const [dir, ...assignments] = spec.split('#');
  const env = Object.fromEntries(assignments.map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]));
  return { label: spec, dir: resolve(dir), env };
}

function load(server: ServerHandle, durationS: number): ReturnType<typeof autocannon> {
  const requests = (server.ready.keys ?? []).map((key) => ({ method: 'GET', path: PATH, headers: { 'x-api-key': key } }));
  return autocannon({ url: `http://127.0.0.1:${server.ready.port}${PATH}`, connections: 50, pipelining: 1, timeout: 10, duration: durationS, requests });
}

async function startSide(side: Side, prefix: string): Promise<ServerHandle> {
  // startServer runs the script relative to the working directory: the checkout's own app.
  process.chdir(side.dir);
  return startServer(side.label, 'bench/servers/app.server.ts', 0, {
    ...side.env,
    // BENCH_AB_ADAPTER=express compares the Express servers instead.
    HTTP_ADAPTER: process.env.BENCH_AB_ADAPTER === 'express' ? 'express' : 'fastify',
    BENCH_KEYS: String(KEYS),
    DATABASE_URL,
    REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
  });
}

interface Figures {
  usPerReq: number;
  userUs: number;
  systemUs: number;
  requests: number;
  non2xx: number;
}

/** One round: both servers up, warmed, then loaded for DURATION_S at the same time. */
async function round(first: Side, second: Side): Promise<Map<Side, Figures>> {
  const prefixes = [first, second].map(() => `bench:ab:${randomBytes(4).toString('hex')}:`);
  const servers: ServerHandle[] = [];
  try {
    servers.push(await startSide(first, prefixes[0]));
    servers.push(await startSide(second, prefixes[1]));
    await Promise.all(servers.map((s) => primeKeys(`http://127.0.0.1:${s.ready.port}${PATH}`, s.ready.keys ?? [])));
    await Promise.all(servers.map((s) => load(s, WARMUP_S)));
    const before = servers.map((s) => processCpu(s.pid));
    const results = await Promise.all(servers.map((s) => load(s, DURATION_S)));
    const after = servers.map((s) => processCpu(s.pid));
    const figures = new Map<Side, Figures>();
    [first, second].forEach((side, i) => {
      const requests = results[i].requests.total;
      const userUs = ((after[i].user - before[i].user) * 1e6) / requests;
      const systemUs = ((after[i].system - before[i].system) * 1e6) / requests;
      figures.set(side, { usPerReq: userUs + systemUs, userUs, systemUs, requests, non2xx: results[i].non2xx + results[i].errors });
    });
    return figures;
  } finally {
    for (const s of servers) await s.stop();
    for (const [i, s] of servers.entries()) {
      await cleanUpRun({ redisUrl: REDIS_URL, databaseUrl: DATABASE_URL, prefix: prefixes[i], wallets: s.ready.wallets ?? [] });
    }
  }
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const [a, b, roundsArg] = process.argv.slice(2);
  if (!a || !b) throw new Error('usage: npm run bench:ab -- <checkout A>[#NAME=value...] <checkout B>[#NAME=value...] [rounds]');
  const sides = [parseSide(a), parseSide(b)];
  const rounds = Number(roundsArg) || 4;
  const ratios: number[] = [];
  let failed = false;
  for (let r = 0; r < rounds; r += 1) {
    const order = r % 2 === 0 ? sides : [sides[1], sides[0]];
    const figures = await round(order[0], order[1]);
    for (const side of sides) {
      const f = figures.get(side)!;
      failed ||= f.non2xx > 0;
      process.stdout.write(
        `round ${r + 1} ${side === sides[0] ? 'A' : 'B'}: ${f.usPerReq.toFixed(1)} µs/req (user ${f.userUs.toFixed(1)} + system ${f.systemUs.toFixed(1)}), ` +
          `${f.requests} requests, ${f.non2xx} failed\n`,
      );
    }
    ratios.push(figures.get(sides[1])!.usPerReq / figures.get(sides[0])!.usPerReq);
  }
  process.stdout.write(`B / A, server CPU per request: median ${median(ratios).toFixed(3)} (rounds: ${ratios.map((x) => x.toFixed(3)).join(', ')})\n`);
  if (failed) {
    process.stderr.write('ERROR: some requests failed; the figures are not comparable\n');
    process.exitCode = 1;
  }
}

process.on('exit', killAll);
main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  killAll();
  process.exit(1);
});
