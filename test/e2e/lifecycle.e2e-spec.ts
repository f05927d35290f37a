import Redis from 'ioredis';
import { Client } from 'pg';
import { startSimulator } from '../../src/simulator/simulator.server';
import { TEST_ADAPTER, TEST_DATABASE_URL, TEST_REDIS_URL, uniqueKeyPrefix } from '../support/test-env';
import { freePort, killSpawned, Spawned, spawnTs, waitFor } from '../support/child-process';

const KEY_PREFIX = uniqueKeyPrefix();
const START_TIMEOUT_MS = 60_000;
/** What a stop may print: the signal line and a closing line or two, never a line per aborted request. */
const MAX_LINES_AFTER_STOP = 4;
/** A node stack frame: what an operator must never see for a configuration mistake. */
const STACK_FRAME = /^\s+at /m;

type Simulator = Awaited<ReturnType<typeof startSimulator>>;

async function live(port: number): Promise<boolean> {
  const res = await fetch(`http://127.0.0.1:${port}/health/live`);
  return res.status === 200;
}

/** Lines printed since `mark` (an offset into the output), without blank ones. */
function linesSince(output: string, mark: number): string[] {
  return output
    .slice(mark)
    .split('\n')
    .filter((line) => line.trim() !== '');
}

describe('Process lifecycle (a real server process with the simulator and the jobs running)', () => {
  let sim: Simulator;
  let db: Client;
  let server: Spawned | undefined;
  const startedAt = new Date();

  beforeAll(async () => {
    sim = await startSimulator({ wallets: 300, weightPerMinute: 0 });
    db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  });

  afterAll(async () => {
    await killSpawned(server);
    await db.end();
    await sim.close();
    const redis = new Redis(TEST_REDIS_URL);
    const keys = await redis.keys(`${KEY_PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  }, 30_000);

  it('ignores SIGHUP, runs jobs without an abort-listener leak, and stops on SIGINT with exit 0 and a line or two', async () => {
    const port = await freePort();
    server = spawnTs('src/main.ts', {
      NODE_ENV: 'test',
      LOG_LEVEL: 'log',
      PORT: String(port),
      HTTP_HOST: '127.0.0.1',
      HTTP_ADAPTER: TEST_ADAPTER,
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: KEY_PREFIX,
      HYPERLIQUID_INFO_URL: sim.infoUrl,
      HYPERLIQUID_STATS_URL: sim.statsUrl,
      // A budget the polling exhausts within its first rounds: then a dozen reads wait for the next window
      // at once, which is where listeners piled up on one signal, and a stop finds them all waiting.
      HYPERLIQUID_WEIGHT_PER_MINUTE: '300',
      HL_MIDS_INTERVAL_MS: '500',
      HL_POSITIONS_INTERVAL_MS: '1000',
      HL_TRADES_INTERVAL_MS: '1000',
      HL_SNAPSHOT_INTERVAL_MS: '1500',
      HL_LEADERBOARD_INTERVAL_MS: '5000',
      HL_POLL_BATCH: '100',
      HL_POLL_CONCURRENCY: '16',
    });
    await waitFor('/health/live', () => live(port), START_TIMEOUT_MS, server);

    // Several job cycles, and the budget spent: the polls now wait for request weight.
    await waitFor(
      'a few job runs',
      async () => {
        const { rows } = await db.query(`SELECT count(*)::int AS n FROM job_runs WHERE started_at >= $1 AND status = 'ok'`, [startedAt]);
        return rows[0].n >= 6;
      },
      START_TIMEOUT_MS,
      server,
    );
    await new Promise((r) => setTimeout(r, 3_000));

    server.child.kill('SIGHUP');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(server.child.exitCode).toBeNull();
    expect(await live(port)).toBe(true);

    const mark = server.output().length;
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    const output = server.output();
    const after = linesSince(output, mark);
    expect(output).not.toContain('MaxListenersExceededWarning');
    expect(after.join('\n')).not.toMatch(/ERROR/);
    // The lines themselves in the failure, not just their count.
    expect(after.length <= MAX_LINES_AFTER_STOP ? [] : after).toEqual([]);
    expect(after.join('\n')).toMatch(/SIGINT/);
    expect(output).toMatch(/SIGHUP/);
  }, 150_000);

  it.each([
    ['the server', 'src/main.ts', []],
    ['the ops CLI', 'src/cli/main.ts', ['job:status']],
  ])(
    '%s refuses an invalid configuration with the list of problems, exit 1 and no stack trace',
    async (_name, entry, args) => {
      const run = spawnTs(entry, { NODE_ENV: 'production', PORT: 'eighty', DATABASE_URL: TEST_DATABASE_URL }, args);
      expect(await run.exited).toBe(1);
      const output = run.output();
      expect(output).toContain('CURSOR_SECRET must be set in production');
      expect(output).toContain('PORT');
      expect(output).not.toMatch(STACK_FRAME);
    },
    60_000,
  );
});
