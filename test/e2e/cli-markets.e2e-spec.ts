import { DataSource } from 'typeorm';
import { CliIo, EXIT_USAGE, runCli, WithApp } from '../../src/cli/cli-runner';
import { loadSeedUniverse } from '../../src/modules/markets/seed/seed-universe';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator.server';
import { LISTINGS } from '../../src/simulator/world/stock-listings';
import { CliRun, spawnCli as runCliChild } from '../support/child-process';
import { openTestDb } from '../support/test-db';
import { TEST_DATABASE_URL, TEST_REDIS_URL, uniqueKeyPrefix } from '../support/test-env';

// Each spawn compiles the CLI with ts-node (~2-3 s); job:run markets.tradfi quotes the whole seed list on top.
const SPAWN_TIMEOUT_MS = 60_000;
/** A US stock the simulator lists by name and the shipped seed list does not have: only asset:add brings it in. */
const ADDED = 'HOOD';

describe('ops CLI: asset:add', () => {
  let sim: RunningSimulator;
  let db: DataSource;
  /** The spawned commands' Redis keys (locks, the vendor budget), under this run's prefix like every other test key. */
  const keyPrefix = uniqueKeyPrefix();

  /** The real command line, pointed at the simulator by its own settings (`sim.env`, what `--print-env` prints). */
  function spawnCli(args: string[]): Promise<CliRun> {
    const env = {
      ...process.env,
      ...sim.env,
      NODE_ENV: 'test',
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: keyPrefix,
      DEBUG: '',
    };
    return runCliChild(args, env);
  }

  const assetRows = (yahooSymbol: string) =>
    db.query(`SELECT id, type, symbol, name, market, stock_code, currency, sector, industry, categories, listed FROM assets WHERE yahoo_symbol = $1`, [
      yahooSymbol,
    ]) as Promise<Array<Record<string, any>>>;

  const countAssets = async () => Number((await db.query(`SELECT count(*)::int AS n FROM assets`))[0].n);

  beforeAll(async () => {
    sim = await startSimulator({ wallets: 10 });
    db = await openTestDb();
    // A rerun on the same database starts without the asset, so the first command really adds it.
    await db.query(`DELETE FROM asset_quotes WHERE asset_id IN (SELECT id FROM assets WHERE yahoo_symbol = $1)`, [ADDED]);
    await db.query(`DELETE FROM assets WHERE yahoo_symbol = $1`, [ADDED]);
  });

  afterAll(async () => {
    await db?.destroy();
    await sim?.close();
  });

  it('picks a symbol the simulator quotes and the seed list lacks', () => {
    expect(LISTINGS.some((listing) => listing.symbol === ADDED && listing.type === 'EQUITY')).toBe(true);
    expect(loadSeedUniverse().some((entry) => entry.yahooSymbol === ADDED)).toBe(false);
  });

  it(
    'adds a stock the vendor quotes, keeps its id when added again, and markets.tradfi then quotes it',
    async () => {
      const added = await spawnCli(['asset:add', ADDED.toLowerCase(), '--sector', 'Financial Services', '--json']);
      expect(added.stderr).toBe('');
      expect(added.code).toBe(0);
      expect(added.stdout).toHaveLength(1);
      expect(added.json).toEqual({
        ok: true,
        asset: {
          id: expect.any(Number),
          type: 'STOCK',
          symbol: ADDED,
          name: 'Robinhood Markets, Inc.',
          market: 'US',
          stockCode: `${ADDED}-US`,
          currency: 'USD',
          sector: 'Financial Services',
          industry: 'Capital Markets',
          categories: ['financial-services'],
          yahooSymbol: ADDED,
        },
      });
      const id: number = added.json.asset.id;
      // The vendor's industry, as the sector was not asked of it; the quote read is stored at once.
      const [first] = await db.query(`SELECT price::text AS price FROM asset_quotes WHERE asset_id = $1`, [id]);
      expect(Number(first?.price)).toBeGreaterThan(0);
      expect(await assetRows(ADDED)).toEqual([
        {
          id,
          type: 'STOCK',
          symbol: ADDED,
          name: 'Robinhood Markets, Inc.',
          market: 'US',
          stock_code: `${ADDED}-US`,
          currency: 'USD',
          sector: 'Financial Services',
          industry: 'Capital Markets',
          categories: ['financial-services'],
          listed: true,
        },
      ]);

      const again = await spawnCli(['asset:add', ADDED]);
      expect(again.code).toBe(0);
      expect(again.stdout).toEqual([`added ${ADDED} (STOCK, US, ${ADDED}-US, USD) as asset ${id}, quoted now; markets.tradfi keeps its quote fresh`]);
      // Same row; a sector left out the second time keeps the one given the first.
      expect(await assetRows(ADDED)).toEqual([expect.objectContaining({ id, sector: 'Financial Services', listed: true })]);

      const job = await spawnCli(['job:run', 'markets.tradfi', '--json']);
      expect(job.code).toBe(0);
      expect(job.json.job).toMatchObject({ name: 'markets.tradfi', status: 'ok' });
      const [quote] = await db.query(`SELECT price::text AS price FROM asset_quotes WHERE asset_id = $1`, [id]);
      expect(Number(quote?.price)).toBeGreaterThan(0);
      // The job writes the seed list first; an added asset stays listed alongside it.
      expect(await assetRows(ADDED)).toEqual([expect.objectContaining({ id, listed: true })]);
    },
    3 * SPAWN_TIMEOUT_MS,
  );

  it(
    'refuses a malformed symbol and one the vendor does not quote, naming symbol, and writes nothing',
    async () => {
      const before = await countAssets();
      const [malformed, unknown] = await Promise.all([spawnCli(['asset:add', 'NOT A SYMBOL', '--json']), spawnCli(['asset:add', 'ZZQX9', '--json'])]);

      for (const refused of [malformed, unknown]) {
        expect(refused.code).toBe(1);
        expect(refused.json).toEqual({ ok: false, error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/^symbol: /) } });
        expect(refused.stderr).toMatch(/^error: symbol: /);
      }
      expect(unknown.json.error.message).toContain('ZZQX9');
      expect(await countAssets()).toBe(before);
      expect(await assetRows('ZZQX9')).toEqual([]);
    },
    SPAWN_TIMEOUT_MS,
  );

  it('takes exactly one symbol, before it opens the application', async () => {
    let stdout = '';
    const io: CliIo = { stdout: (text) => (stdout += text), stderr: () => undefined };
    const withApp: WithApp = () => Promise.reject(new Error('a bad command line must not open the application'));

    for (const args of [['asset:add'], ['asset:add', 'HOOD', 'COIN']]) {
      stdout = '';
      expect(await runCli([...args, '--json'], { io, withApp })).toBe(EXIT_USAGE);
      expect(JSON.parse(stdout).error).toEqual({ code: 'USAGE_ERROR', message: expect.stringContaining('asset:add: expected exactly one yahooSymbol') });
    }
  });
});
