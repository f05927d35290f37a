import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { CliRun, spawnCli as runCliChild } from '../support/child-process';
import { resetDb } from '../support/reset-db';
import { openTestDb } from '../support/test-db';
import { TEST_DATABASE_URL, TEST_REDIS_URL, uniqueKeyPrefix } from '../support/test-env';

// Each spawn compiles the CLI with ts-node (~3 s, much more on a busy machine); up to four run per test.
const SPAWN_TIMEOUT_MS = 180_000;
const BUILDER = '0x' + '5'.repeat(40);
const DISTRIBUTOR = '0x' + 'd'.repeat(40);
const ROOT_HASH = /^0x[0-9a-f]{64}$/;

/** What the seed owes: a referrer its 10 % (L1) of its referee's builder fees, an OPC owner its revenue. */
interface Owed {
  referrer: string;
  opcOwner: string;
}

describe('ops CLI: rewards', () => {
  let db: DataSource;
  /** The spawned commands' Redis keys, under this run's prefix like every other test key. */
  const keyPrefix = uniqueKeyPrefix();

  /** The real command line against the test servers, with the service's builder and the distributor set unless `env` says otherwise. */
  function spawnCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
    return runCliChild(args, {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: keyPrefix,
      DEBUG: '',
      BUILDER_ADDRESS: BUILDER,
      REWARDS_DISTRIBUTOR_ADDRESS: DISTRIBUTOR,
      ...env,
    });
  }

  async function account(wallet: string): Promise<string> {
    const [{ id }] = await db.query(`INSERT INTO accounts (wallet_address, tier) VALUES ($1, 'free') RETURNING id`, [wallet.toLowerCase()]);
    return id;
  }

  /**
   * A referrer whose referee paid the service's builder 100 in fees since binding (10 % = 10 USDC owed), and an
   * OPC owner with 2.5 USDC of revenue. Addresses come back checksummed, as an operator would paste them.
   */
  async function seedOwed(): Promise<Owed> {
    const [referrer, referee, opcOwner] = [Wallet.createRandom().address, Wallet.createRandom().address, Wallet.createRandom().address];
    const referrerId = await account(referrer);
    const refereeId = await account(referee);
    await db.query(`INSERT INTO referral_bindings (referee_account_id, referrer_account_id, bound_at) VALUES ($1, $2, now() - interval '1 hour')`, [
      refereeId,
      referrerId,
    ]);
    await db.query(
      `INSERT INTO builder_fills (fill_key, builder, user_address, coin, market, side, px, sz, volume_usd, builder_fee, crossed, fill_time, source)
       VALUES ('fill-1', $1, $2, 'BTC', 'perp', 'B', 100000, 1, 100000, 100, true, now(), 'daily_file')`,
      [BUILDER, referee.toLowerCase()],
    );
    const [{ id: opcId }] = await db.query(
      `INSERT INTO opc_configs (account_id, name, subdomain, frontend_fee_tenths_bps, builder_address, is_active)
       VALUES ($1, 'opc', 'opc', 25, $2, true) RETURNING id`,
      [await account(opcOwner), '0x' + '9'.repeat(40)],
    );
    await db.query(`INSERT INTO opc_revenue_entries (opc_id, period_start, period_end, amount) VALUES ($1, '2026-11-01', '2026-11-02', 2.5)`, [opcId]);
    return { referrer, opcOwner };
  }

  async function storedRounds(): Promise<Array<Record<string, unknown>>> {
    return db.query(
      `SELECT r.round_id AS "roundId", r.program, r.merkle_root AS "merkleRoot", r.total_base::text AS "totalBase", r.leaf_count AS leaves,
              r.distributor, array_agg(l.address) AS addresses
         FROM reward_rounds r JOIN reward_leaves l ON l.round_id = r.round_id
        GROUP BY r.round_id ORDER BY r.round_id`,
    );
  }

  async function claimedAt(roundId: number, address: string): Promise<Date | null> {
    const [row] = await db.query(`SELECT claimed_at AS at FROM reward_leaves WHERE round_id = $1 AND address = $2`, [roundId, address.toLowerCase()]);
    return row.at;
  }

  beforeAll(async () => {
    db = await openTestDb();
  });
  beforeEach(() => resetDb(db));
  afterAll(async () => {
    await db?.destroy();
  });

  describe('rewards:publish-round', () => {
    it(
      'publishes a round of each programme with anything owed, prints them as one JSON object and stores them; again, with nothing new owed, none',
      async () => {
        const { referrer, opcOwner } = await seedOwed();

        const run = await spawnCli(['rewards:publish-round', '--json']);

        expect(run.code).toBe(0);
        expect(run.stdout).toHaveLength(1);
        expect(run.json).toEqual({
          ok: true,
          rounds: [
            { program: 'referral', roundId: 1, leaves: 1, totalBase: '10000000', merkleRoot: expect.stringMatching(ROOT_HASH) },
            { program: 'opc', roundId: 2, leaves: 1, totalBase: '2500000', merkleRoot: expect.stringMatching(ROOT_HASH) },
          ],
        });
        const [referral, opc] = run.json.rounds;
        expect(await storedRounds()).toEqual([
          { ...referral, distributor: DISTRIBUTOR, addresses: [referrer.toLowerCase()] },
          { ...opc, distributor: DISTRIBUTOR, addresses: [opcOwner.toLowerCase()] },
        ]);

        const again = await spawnCli(['rewards:publish-round']);
        expect(again.code).toBe(0);
        expect(again.stdout).toEqual(['nothing is owed: no round published']);
        expect(await storedRounds()).toHaveLength(2);
      },
      SPAWN_TIMEOUT_MS,
    );

    it(
      'with --program opc publishes only the OPC round, and refuses an unknown programme naming --program',
      async () => {
        const { opcOwner } = await seedOwed();

        const [run, unknown] = await Promise.all([
          spawnCli(['rewards:publish-round', '--program', 'opc']),
          spawnCli(['rewards:publish-round', '--program', 'points', '--json']),
        ]);

        expect(run.code).toBe(0);
        const stored = await storedRounds();
        expect(stored).toEqual([expect.objectContaining({ roundId: 1, program: 'opc', totalBase: '2500000', addresses: [opcOwner.toLowerCase()] })]);
        expect(run.stdout).toEqual([`published opc round 1: 1 leaves, 2500000 base units, root ${stored[0].merkleRoot}`]);
        expect(unknown.code).toBe(1);
        expect(unknown.json).toEqual({ ok: false, error: { code: 'VALIDATION_ERROR', message: 'program: must be one of referral, opc' } });
      },
      SPAWN_TIMEOUT_MS,
    );

    it(
      'fails without REWARDS_DISTRIBUTOR_ADDRESS, naming it, and stores no round',
      async () => {
        await seedOwed();

        const run = await spawnCli(['rewards:publish-round', '--json'], { REWARDS_DISTRIBUTOR_ADDRESS: '' });

        expect(run.code).toBe(1);
        expect(run.stderr).toContain('REWARDS_DISTRIBUTOR_ADDRESS');
        expect(run.json).toEqual({ ok: false, error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/^REWARDS_DISTRIBUTOR_ADDRESS: /) } });
        expect(await storedRounds()).toEqual([]);
      },
      SPAWN_TIMEOUT_MS,
    );
  });

  describe('rewards:mark-claimed', () => {
    it(
      'marks the wallet’s leaf of the round claimed once; marking it again is NOT_FOUND',
      async () => {
        const { referrer, opcOwner } = await seedOwed();
        expect((await spawnCli(['rewards:publish-round'])).code).toBe(0);

        const marked = await spawnCli(['rewards:mark-claimed', '--round', '1', '--address', referrer, '--json']);

        expect(marked.code).toBe(0);
        expect(marked.json).toEqual({ ok: true, round: 1, address: referrer.toLowerCase() });
        const at = await claimedAt(1, referrer);
        expect(at).toBeInstanceOf(Date);
        expect(await claimedAt(2, opcOwner)).toBeNull();

        const [again, otherRound] = await Promise.all([
          spawnCli(['rewards:mark-claimed', '--round', '1', '--address', referrer, '--json']),
          spawnCli(['rewards:mark-claimed', '--round', '2', '--address', referrer, '--json']),
        ]);
        for (const refused of [again, otherRound]) {
          expect(refused.code).toBe(1);
          expect(refused.json.error).toEqual({ code: 'NOT_FOUND', message: expect.stringContaining('not found') });
        }
        expect(await claimedAt(1, referrer)).toEqual(at);
        expect(await claimedAt(2, opcOwner)).toBeNull();
      },
      SPAWN_TIMEOUT_MS,
    );

    it(
      'refuses a round that is not a positive integer, naming --round',
      async () => {
        const runs = await Promise.all(
          ['0', 'abc', '1.5'].map((round) => spawnCli(['rewards:mark-claimed', '--round', round, '--address', Wallet.createRandom().address, '--json'])),
        );
        for (const run of runs) {
          expect(run.code).toBe(1);
          expect(run.json.error).toEqual({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/^round: /) });
        }
      },
      SPAWN_TIMEOUT_MS,
    );

    it(
      'refuses an address that is not one, naming --address',
      async () => {
        const runs = await Promise.all(
          ['0x1234', 'not-an-address'].map((address) => spawnCli(['rewards:mark-claimed', '--round', '1', '--address', address, '--json'])),
        );
        for (const run of runs) {
          expect(run.code).toBe(1);
          expect(run.json.error).toEqual({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/^address: /) });
        }
      },
      SPAWN_TIMEOUT_MS,
    );
  });
});
