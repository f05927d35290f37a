import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory';
import { loadAppConfig } from '../../src/config/app.config';
import { JobRegistry } from '../../src/jobs/job-registry';
import { JobRunner } from '../../src/jobs/job-runner';
import { SnapshotStore } from '../../src/modules/hl/snapshot/snapshot-store';
import { startSimulator } from '../../src/simulator/simulator.server';

/**
 * The data half of `npm run bench:hl`: the simulator's market (BENCH_WALLETS wallets, weight budget off)
 * polled through the real client and jobs into PostgreSQL, then one timed market snapshot. Prints one
 * `BENCH_READY {json}` line with the figures and exits. BENCH_HL_REUSE=1 skips the polling when the
 * database already holds positions from an earlier run.
 */
export const DEEP_COIN = 'bench:DEEP';
const DEEP_ROWS = 600_000;

async function main(): Promise<void> {
  const wallets = Number(process.env.BENCH_WALLETS ?? 100_000);
  const sim = await startSimulator({ wallets, weightPerMinute: 0 });
  const config = loadAppConfig({
    ...process.env,
    LOG_LEVEL: 'warn',
    REDIS_KEY_PREFIX: `benchhl:${randomBytes(4).toString('hex')}:`,
    // The simulator's settings: its URLs, and its weight limit (off) as the budget.
    ...sim.env,
    HL_JOBS_ENABLED: 'false',
    HL_POLL_BATCH: '1000000',
    HL_POLL_CONCURRENCY: '64',
  });
  const app = await createApp(config, { logger: false });
  await app.init();
  const db = app.get(DataSource);
  const run = async (name: string) => {
    const started = Date.now();
    const result = await app.get(JobRunner).run(app.get(JobRegistry).get(name)!, { waitMs: 60_000 });
    if (result.status !== 'ok') throw new Error(`${name} ${result.status}: ${result.error}`);
    process.stderr.write(`${name}: ${result.outcome?.rows} rows in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    return { ms: Date.now() - started, rows: result.outcome?.rows ?? 0 };
  };

  const [{ n: existing }] = await db.query(`SELECT count(*)::int AS n FROM hl_positions`);
  const reuse = process.env.BENCH_HL_REUSE === '1' && existing > 0;
  let pollMs = 0;
  for (const name of ['hl.markets', 'hl.mids', 'hl.leaderboard', 'hl.trades']) await run(name);
  if (!reuse) {
    await db.query(`UPDATE hl_addresses SET next_poll_at = '-infinity'`);
    pollMs = (await run('hl.positions')).ms;
  }
  const [{ n: positions }] = await db.query(`SELECT count(*)::int AS n FROM hl_positions`);

  // Peak resident memory of this process while the snapshot builds (the set-based work is PostgreSQL's).
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const snapshot = await run('hl.snapshot');
  clearInterval(sampler);

  const current = (await app.get(SnapshotStore).current('market'))!;
  await seedDeepCoin(db, current.id);
  process.stdout.write(
    `BENCH_READY ${JSON.stringify({
      port: 0,
      wallets,
      positions,
      pollMs,
      reused: reuse,
      snapshotMs: snapshot.ms,
      snapshotRows: snapshot.rows,
      peakRssMb: Math.round(peakRss / 1e6),
      snapshotId: current.id,
      deepCoin: DEEP_COIN,
      deepRows: DEEP_ROWS,
    })}\n`,
  );
  await app.close();
  await sim.close();
}

/**
 * No coin of a 100,000-wallet market has more than 100,000 holders (one position per wallet and coin),
 * so the cursor-depth figure uses one synthetic coin of 600,000 holders added to the published snapshot.
 */
async function seedDeepCoin(db: DataSource, snapshotId: number): Promise<void> {
  await db.query(`DELETE FROM hl_perp_holders WHERE snapshot_id = $1 AND coin = $2`, [snapshotId, DEEP_COIN]);
  await db.query(
    `INSERT INTO hl_perp_holders
     SELECT $1::bigint, $2, '0x' || lpad(to_hex(g), 40, '0'), 'long', 1, ${DEEP_ROWS} - g, 100, 1, 0, 0, 1, NULL, 100, NULL, 0.0001, g, g
       FROM generate_series(1, ${DEEP_ROWS}) AS g`,
    [snapshotId, DEEP_COIN],
  );
  await db.query(`ANALYZE hl_perp_holders_s${snapshotId}`);
  await db.query(
    `INSERT INTO hl_markets (market, coin, dex, upstream_coin, mark_px, mid_px) VALUES ('perp', $1, 'bench', $1, 100, 100)
     ON CONFLICT (market, coin) DO NOTHING`,
    [DEEP_COIN],
  );
  await db.query(
    `INSERT INTO hl_snapshot_coins (snapshot_id, market, coin, holders, mark_px, reference_total, seen_total, coverage)
     VALUES ($1, 'perp', $2, ${DEEP_ROWS}, 100, ${DEEP_ROWS}, ${DEEP_ROWS}, 1) ON CONFLICT DO NOTHING`,
    [snapshotId, DEEP_COIN],
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`hl build failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
