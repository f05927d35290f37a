import { randomUUID } from 'node:crypto';
import * as pg from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';
import { LEDGER_REFERENCE_NAMESPACE, LedgerEntry, OutboxBatch } from '../../src/modules/billing/ledger-entry';
import { LedgerRepository } from '../../src/modules/billing/ledger.repository';
import { ledgerLine } from '../support/ledger-lines';
import { openTestDb } from '../support/test-db';
import { uuidV3 } from '../support/uuid-v3';

/**
 * The test PostgreSQL through a data source that names its driver module, as the embedded database's does
 * (typeorm-pglite plugs PGlite in that way): the repository then takes the statement path it takes there.
 */
async function openTestDbWithDriverModule(): Promise<DataSource> {
  const db = await openTestDb();
  const withDriver = new DataSource({ ...db.options, driver: pg } as DataSourceOptions);
  await db.destroy();
  return withDriver.initialize();
}

// Batches of charges go by COPY on PostgreSQL and by the one statement on embedded PGlite: both ways here,
// each picked by the repository from its data source, as in production.
describe.each([
  ['COPY for batches of charges', openTestDb],
  ['the statement only (as on PGlite)', openTestDbWithDriverModule],
])(`${LedgerRepository.name}, %s`, (_way, openDb) => {
  let db: DataSource;
  let sut: LedgerRepository;
  const write = (lines: string[], fence: { outbox: string; token: string }) => sut.write(OutboxBatch.of(lines), fence);
  let accountId: string;
  let seq = 0;
  // Each test drains its own outbox, so tests (and other suites on this database) never fence each other.
  let outbox: string;
  const as = (token: string) => ({ outbox, token });

  const line = (overrides: Partial<LedgerEntry> = {}) =>
    ledgerLine({
      type: 'charge',
      accountId,
      referenceId: randomUUID(),
      endpoint: 'account.credits',
      amountMicro: '-1000000',
      balanceAfterMicro: '5000000',
      epoch: 0,
      period: 0,
      seq: ++seq,
      atMs: Date.UTC(2026, 10, 21, 12),
      ...overrides,
    });
  const voidOf = (charge: string, overrides: Partial<LedgerEntry> = {}) => {
    const [, , referenceId] = charge.split('|');
    return line({ type: 'void', referenceId, amountMicro: '1000000', ...overrides });
  };
  const rows = async () =>
    db.query(`SELECT type, reference_id, amount::text, balance_after::text FROM credit_transactions WHERE account_id = $1 ORDER BY id`, [accountId]);
  const balance = async () => (await db.query(`SELECT credit_balance::text AS b, credit_seq::int AS s FROM accounts WHERE id = $1`, [accountId]))[0];
  /** The usage the ledger counted: per period and endpoint, and per UTC day and endpoint. */
  const usage = async () => ({
    periods: await db.query(`SELECT period, endpoint, calls::int, credits::text FROM usage_counters WHERE account_id = $1 ORDER BY 1, 2`, [accountId]),
    days: await db.query(`SELECT to_char(day, 'YYYY-MM-DD') AS day, endpoint, calls::int, credits::text FROM usage_daily WHERE account_id = $1 ORDER BY 1, 2`, [
      accountId,
    ]),
  });

  beforeAll(async () => {
    db = await openDb();
    sut = new LedgerRepository(db);
  });
  afterAll(() => db.destroy());

  beforeEach(async () => {
    [{ id: accountId }] = await db.query(`INSERT INTO accounts (wallet_address, tier) VALUES ($1, 'pro') RETURNING id`, [
      `0x${randomUUID().replace(/-/g, '')}00000000`,
    ]);
    outbox = `test:${randomUUID()}:ledger:outbox`;
    await sut.claim(outbox, 'drainer-1');
  });

  it('writes charges as rows with decimal amounts and folds the newest balance into the account', async () => {
    const charges = [line({ balanceAfterMicro: '4000000' }), line({ balanceAfterMicro: '3000000' })];

    expect(await write(charges, as('drainer-1'))).toEqual({ inserted: 2, malformed: 0, fenced: true });

    expect(await rows()).toEqual([
      { type: 'charge', reference_id: charges[0].split('|')[2], amount: '-1.000000', balance_after: '4.000000' },
      { type: 'charge', reference_id: charges[1].split('|')[2], amount: '-1.000000', balance_after: '3.000000' },
    ]);
    expect(await balance()).toEqual({ b: '3.000000', s: seq });
  });

  it('counts each charge row in /usage as it writes it: one call and its cost, on its period and UTC day, once however often it is read', async () => {
    const charges = [
      line({ period: 2 }),
      line({ period: 2, endpoint: 'search', amountMicro: '-2000000' }),
      line({ period: 2, atMs: Date.UTC(2026, 10, 22, 0, 0, 0, 5) }),
    ];

    await write(charges, as('drainer-1'));
    await write(charges, as('drainer-1'));

    expect(await usage()).toEqual({
      periods: [
        { period: 2, endpoint: 'account.credits', calls: 2, credits: '2.000000' },
        { period: 2, endpoint: 'search', calls: 1, credits: '2.000000' },
      ],
      days: [
        { day: '2026-11-21', endpoint: 'account.credits', calls: 1, credits: '1.000000' },
        { day: '2026-11-21', endpoint: 'search', calls: 1, credits: '2.000000' },
        { day: '2026-11-22', endpoint: 'account.credits', calls: 1, credits: '1.000000' },
      ],
    });
  });

  it('takes a charge a later void deletes back out of /usage, on the day and in the period it was counted; a charge voided in its own batch never counts', async () => {
    const failedLater = line({ period: 1 });
    const failedAtOnce = line({ period: 1 });
    await write([failedLater, line({ period: 1 }), failedAtOnce, voidOf(failedAtOnce, { period: 1 })], as('drainer-1'));

    await write([voidOf(failedLater, { period: 1, atMs: Date.UTC(2026, 10, 23) })], as('drainer-1'));

    expect(await usage()).toEqual({
      periods: [{ period: 1, endpoint: 'account.credits', calls: 1, credits: '1.000000' }],
      days: [{ day: '2026-11-21', endpoint: 'account.credits', calls: 1, credits: '1.000000' }],
    });
  });

  it('writes a line read twice only once', async () => {
    const charges = [line(), line()];
    await write(charges, as('drainer-1'));

    expect(await write(charges, as('drainer-1'))).toMatchObject({ inserted: 0, fenced: true });
    expect(await rows()).toHaveLength(2);
  });

  it('writes only the new lines of a batch that overlaps one already written, and folds the newest balance', async () => {
    const first = [line({ balanceAfterMicro: '4000000' }), line({ balanceAfterMicro: '3000000' })];
    await write(first, as('drainer-1'));
    const next = [line({ balanceAfterMicro: '2000000' })];

    expect(await write([...first, ...next], as('drainer-1'))).toEqual({ inserted: 1, malformed: 0, fenced: true });
    expect((await rows()).map((r: { balance_after: string }) => r.balance_after)).toEqual(['4.000000', '3.000000', '2.000000']);
    expect(await balance()).toEqual({ b: '2.000000', s: seq });
  });

  it('never writes a charge voided in the same batch, and folds the balance the void gave back', async () => {
    const kept = line({ balanceAfterMicro: '4000000' });
    const failed = line({ balanceAfterMicro: '3000000' });

    await write([kept, failed, voidOf(failed, { balanceAfterMicro: '4000000' })], as('drainer-1'));

    expect((await rows()).map((r: { reference_id: string }) => r.reference_id)).toEqual([kept.split('|')[2]]);
    expect((await balance()).b).toBe('4.000000');
  });

  it('deletes a charge written by an earlier batch when its void arrives later', async () => {
    const kept = line();
    const failed = line();
    await write([kept, failed], as('drainer-1'));

    await write([voidOf(failed)], as('drainer-1'));

    expect((await rows()).map((r: { reference_id: string }) => r.reference_id)).toEqual([kept.split('|')[2]]);
  });

  it('deletes a charge whose batch is read and written again together with its void (a drain that could not trim)', async () => {
    const failed = line();
    await write([failed], as('drainer-1'));

    await write([failed, voidOf(failed)], as('drainer-1'));

    expect(await rows()).toEqual([]);
  });

  it('keeps the drainers of different outboxes apart', async () => {
    const otherOutbox = `test:${randomUUID()}:ledger:outbox`;
    await sut.claim(otherOutbox, 'drainer-9');

    expect(await write([line()], as('drainer-1'))).toMatchObject({ inserted: 1, fenced: true });
  });

  it('writes nothing for a drainer whose claim was taken over, so a late batch cannot bring a voided charge back', async () => {
    const failed = line();
    await sut.claim(outbox, 'drainer-2');
    await write([failed], as('drainer-2'));
    await write([voidOf(failed)], as('drainer-2'));

    // drainer-1 read the charge before drainer-2 claimed the ledger, and writes it only now.
    expect(await write([failed], as('drainer-1'))).toEqual({ inserted: 0, malformed: 0, fenced: false });

    expect(await rows()).toEqual([]);
  });

  it('skips lines without the ledger shape and still writes the rest of the batch', async () => {
    const good = line();

    const malformed = [
      'garbage',
      `charge|${accountId}|${randomUUID()}|e|not-a-number|1|0|0|1|1`,
      line({ type: 'refund' as never }),
      // Charges and voids name their call by its request id, a UUID.
      line({ referenceId: 'req-1' }),
    ];

    const result = await write([good, ...malformed], as('drainer-1'));

    expect(result).toEqual({ inserted: 1, malformed: 4, fenced: true });
    expect((await rows()).map((r: { reference_id: string }) => r.reference_id)).toEqual([good.split('|')[2]]);
  });

  it('never moves the balance back with an older entry', async () => {
    await write([line({ balanceAfterMicro: '2000000', seq: 100 })], as('drainer-1'));

    await write([line({ balanceAfterMicro: '9000000', seq: 99 })], as('drainer-1'));

    expect((await balance()).b).toBe('2.000000');
  });

  it('stores a period reset under the name-based UUID of its reference text, keeps the text in notes, and writes a replay once', async () => {
    const text = `${accountId}:e0:p3`;
    const reset = line({ type: 'period_reset', referenceId: text, endpoint: '', amountMicro: '7000000', balanceAfterMicro: '9000000', period: 3 });

    await write([reset], as('drainer-1'));
    expect(await write([reset], as('drainer-1'))).toMatchObject({ inserted: 0, fenced: true });

    const stored = await db.query(`SELECT reference_id, reference_type, notes FROM credit_transactions WHERE account_id = $1`, [accountId]);
    expect(stored).toEqual([{ reference_id: uuidV3(text, LEDGER_REFERENCE_NAMESPACE), reference_type: 'credit_period', notes: `credit period reset ${text}` }]);
  });

  it("writes a batch of charges to several accounts with each account's newest balance folded, whatever the line order", async () => {
    const [{ id: other }] = await db.query(`INSERT INTO accounts (wallet_address, tier) VALUES ($1, 'pro') RETURNING id`, [
      `0x${randomUUID().replace(/-/g, '')}00000000`,
    ]);
    // line() counts seq up on every call: these take fixed ones above it.
    const s0 = seq + 10;
    const mine = line({ balanceAfterMicro: '1000000', seq: s0 + 2 });
    const older = line({ balanceAfterMicro: '2000000', seq: s0 + 1 });
    const theirs = line({ accountId: other, balanceAfterMicro: '8000000', seq: s0 + 3, atMs: Date.UTC(2026, 10, 21, 12, 0, 1) });
    seq = s0 + 3;

    expect(await write([mine, older, theirs], as('drainer-1'))).toEqual({ inserted: 3, malformed: 0, fenced: true });

    expect(await balance()).toEqual({ b: '1.000000', s: s0 + 2 });
    const [otherAccount] = await db.query(`SELECT credit_balance::text AS b FROM accounts WHERE id = $1`, [other]);
    expect(otherAccount.b).toBe('8.000000');
    const stored = await db.query(
      `SELECT reference_type, endpoint, seq::int, created_at FROM credit_transactions WHERE account_id = ANY($1::uuid[]) ORDER BY seq`,
      [[accountId, other]],
    );
    expect(stored).toEqual([
      { reference_type: 'api_call', endpoint: 'account.credits', seq: s0 + 1, created_at: new Date(Date.UTC(2026, 10, 21, 12)) },
      { reference_type: 'api_call', endpoint: 'account.credits', seq: s0 + 2, created_at: new Date(Date.UTC(2026, 10, 21, 12)) },
      { reference_type: 'api_call', endpoint: 'account.credits', seq: s0 + 3, created_at: new Date(Date.UTC(2026, 10, 21, 12, 0, 1)) },
    ]);
  });

  it('writes nothing of a batch whose one line does not cast, then the rest of it', async () => {
    const good = line();
    const bad = line({ amountMicro: '12x' });

    expect(await write([good, bad], as('drainer-1'))).toEqual({ inserted: 1, malformed: 1, fenced: true });
    expect((await rows()).map((r: { reference_id: string }) => r.reference_id)).toEqual([good.split('|')[2]]);
  });
});
