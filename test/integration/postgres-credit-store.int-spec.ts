import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AccountCreditsRepository, PostgresAdmission } from '../../src/modules/billing/account-credits.repository';
import { openTestDb } from '../support/test-db';

/**
 * The `postgres` credits store's two functions (billing_admit, billing_void) on real PostgreSQL: calls
 * decided one after the other within a batch, charged with their ledger row and usage before the answer,
 * a batch sent again charging nothing twice, monthly resets, and voids that give back exactly once.
 */
describe('billing_admit and billing_void (the postgres credits store)', () => {
  let db: DataSource;
  let sut: AccountCreditsRepository;
  let accountId: string;
  const AT = Date.UTC(2027, 0, 15, 12);

  beforeAll(async () => {
    db = await openTestDb();
    sut = new AccountCreditsRepository(db);
  });
  afterAll(() => db.destroy());
  beforeEach(async () => {
    [{ id: accountId }] = await db.query(`INSERT INTO accounts (wallet_address, tier, credit_balance) VALUES ($1, 'pro', 2.5) RETURNING id`, [
      `0x${randomUUID().replace(/-/g, '')}00000000`,
    ]);
  });

  const call = (overrides: Partial<PostgresAdmission> = {}): PostgresAdmission => ({
    accountId,
    requestId: randomUUID(),
    endpoint: 'account.credits',
    costMicro: 1_000_000,
    charge: true,
    epoch: 0,
    period: 0,
    quotaMicro: '10000000000000',
    ...overrides,
  });
  const ledger = () =>
    db.query(`SELECT type, amount::text, balance_after::text FROM credit_transactions WHERE account_id = $1 ORDER BY id`, [accountId]) as Promise<
      Array<{ type: string; amount: string; balance_after: string }>
    >;
  const settled = async () => (await db.query(`SELECT credit_balance::text AS b FROM accounts WHERE id = $1`, [accountId]))[0].b;
  const usage = () => db.query(`SELECT period, endpoint, calls::int, credits::text FROM usage_counters WHERE account_id = $1 ORDER BY 1, 2`, [accountId]);

  it('decides the calls of a batch one after the other, each charge with its ledger row and its usage', async () => {
    const calls = [call(), call({ costMicro: 2_000_000 }), call({ costMicro: 0, charge: false }), call({ costMicro: 500_000 })];

    const answers = await sut.admitInPostgres(calls, { atMs: AT, lockTimeoutMs: 2000 });

    expect(answers.map((a) => [a.status, a.balanceMicro])).toEqual([
      [1, '1500000'],
      [2, '1500000'],
      [1, '1500000'],
      [1, '1000000'],
    ]);
    expect(answers[0].seq).toBeLessThan(answers[3].seq);
    expect(await ledger()).toEqual([
      { type: 'charge', amount: '-1.000000', balance_after: '1.500000' },
      { type: 'charge', amount: '-0.500000', balance_after: '1.000000' },
    ]);
    expect(await settled()).toBe('1.000000');
    expect(await usage()).toEqual([{ period: 0, endpoint: 'account.credits', calls: 2, credits: '1.500000' }]);
  });

  it('answers a batch sent again (its reply lost) as it did, charging nothing twice', async () => {
    const calls = [call(), call()];
    const first = await sut.admitInPostgres(calls, { atMs: AT, lockTimeoutMs: 2000 });

    const again = await sut.admitInPostgres(calls, { atMs: AT, lockTimeoutMs: 2000 });

    expect(again.map((a) => [a.status, a.balanceMicro, a.seq])).toEqual(first.map((a) => [a.status, a.balanceMicro, a.seq]));
    expect(await ledger()).toHaveLength(2);
    expect(await settled()).toBe('0.500000');
  });

  it('starts a new period at the quota, with its reset row, for a caller that knows the epoch', async () => {
    const [answer] = await sut.admitInPostgres([call({ period: 3, quotaMicro: '20000000' })], { atMs: AT, lockTimeoutMs: 2000 });

    expect([answer.status, answer.balanceMicro, answer.period]).toEqual([1, '19000000', 3]);
    expect((await ledger()).map((r) => r.type)).toEqual(['period_reset', 'charge']);
    // A caller older than an operator change never resets: the account's epoch is 0, this caller's -1.
    const [stale] = await sut.admitInPostgres([call({ epoch: -1, period: 4, quotaMicro: '99000000' })], { atMs: AT, lockTimeoutMs: 2000 });
    expect([stale.balanceMicro, stale.period]).toEqual(['18000000', 3]);
  });

  it('voids a failed call once: its row, its credits and its usage', async () => {
    const failed = call();
    await sut.admitInPostgres([call(), failed], { atMs: AT, lockTimeoutMs: 2000 });

    expect(await sut.voidInPostgres({ accountId, requestId: failed.requestId, period: 0 })).toBe('1500000');
    expect(await sut.voidInPostgres({ accountId, requestId: failed.requestId, period: 0 })).toBe('1500000');

    expect(await ledger()).toHaveLength(1);
    expect(await settled()).toBe('1.500000');
    expect(await usage()).toEqual([{ period: 0, endpoint: 'account.credits', calls: 1, credits: '1.000000' }]);
  });

  it('gives nothing back into a balance an operator change replaced since the charge', async () => {
    const failed = call();
    await sut.admitInPostgres([failed], { atMs: AT, lockTimeoutMs: 2000 });
    await db.transaction(async (manager) => {
      const account = await manager.findOneByOrFail('AccountEntity', { id: accountId });
      await sut.setBalance(manager, account as never, { balance: '50', notes: 'grant' });
    });

    expect(await sut.voidInPostgres({ accountId, requestId: failed.requestId, period: 0 })).toBe('50000000');

    expect((await ledger()).map((r) => r.type)).toEqual(['adjustment']);
    expect(await settled()).toBe('50.000000');
  });

  it('charges nothing of a batch given up on (its calls answered 503) that reaches the database after the give-up', async () => {
    const late = call();
    await sut.voidInPostgres({ accountId, requestId: late.requestId, period: 0, abandon: true });

    const [answer] = await sut.admitInPostgres([late], { atMs: AT, lockTimeoutMs: 2000 });

    expect(answer.status).toBe(2);
    expect(await ledger()).toEqual([]);
    expect(await settled()).toBe('2.500000');
  });

  it('gives up waiting for its locks within the lock timeout instead of charging later', async () => {
    const runner = db.createQueryRunner();
    await runner.startTransaction();
    try {
      await runner.query(`SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE`, [accountId]);
      await expect(sut.admitInPostgres([call()], { atMs: AT, lockTimeoutMs: 50 })).rejects.toMatchObject({ driverError: { code: '55P03' } });
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    expect(await ledger()).toEqual([]);
  });

  it('reads a balance without writing anything, the quota when a new period is due', async () => {
    const [now, due] = await sut.admitInPostgres([call({ charge: false }), call({ charge: false, period: 1, quotaMicro: '7000000' })], {
      atMs: AT,
      lockTimeoutMs: 2000,
    });

    expect([now.balanceMicro, due.balanceMicro]).toEqual(['2500000', '7000000']);
    expect(await ledger()).toEqual([]);
  });
});
