import { AccountAdminService } from '../../src/modules/account/account-admin.service';
import { BillingKeys } from '../../src/modules/billing/billing-keys';
import { LedgerFlusherService } from '../../src/modules/billing/ledger-flusher.service';
import { UsageSyncService } from '../../src/modules/billing/usage-sync.service';
import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { eventually, get, waitForFreshWindow } from '../support/http';
import { resetDb } from '../support/reset-db';
import { testConfig, uniqueKeyPrefix } from '../support/test-env';

/** Everything a test needs to see in PostgreSQL: the ledger outbox drained. */
async function settle(t: TestApp) {
  await t.app.get(LedgerFlusherService).flush();
}

async function ledgerSeqs(t: TestApp, accountId: string): Promise<string[]> {
  const rows = await t.db.query(`SELECT seq::text FROM credit_transactions WHERE account_id = $1 AND type = 'charge' ORDER BY id`, [accountId]);
  return rows.map((r: { seq: string }) => r.seq);
}

async function ledgerRows(t: TestApp, accountId: string) {
  return t.db.query(
    `SELECT type, amount::text, balance_after::text, reference_type, reference_id, endpoint
       FROM credit_transactions WHERE account_id = $1 AND type <> 'adjustment' ORDER BY id`,
    [accountId],
  );
}

describe('Credit billing', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(testConfig({ API_KEY_CACHE_TTL_MS: '300', LEDGER_FLUSH_INTERVAL_MS: '60000' }));
    await resetDb(t.db);
  });
  afterAll(() => t.close());

  it('moves the balance by exactly the summed cost of successful calls and writes one ledger row each', async () => {
    const { key, account } = await makeAccount(t, { tier: 'pro' });
    const paid = await Promise.all(Array.from({ length: 7 }, () => get(t, '/account/credits', key)));
    const free = await Promise.all(Array.from({ length: 3 }, () => get(t, '/usage', key)));
    const failed = await Promise.all([get(t, '/account/credits/transactions?limit=0', key), get(t, '/account/credits/transactions?x=1', key)]);
    expect(paid.map((r) => r.status)).toEqual(Array(7).fill(200));
    expect(free.map((r) => r.status)).toEqual(Array(3).fill(200));
    expect(failed.map((r) => r.status)).toEqual([400, 400]);
    expect(free.every((r) => r.headers['x-credits-cost'] === '0')).toBe(true);

    const after = await get(t, '/account/credits', key);
    expect(after.body.data.balance).toBe('9999992');

    await settle(t);
    const rows = await ledgerRows(t, account.id);
    const charges = rows.filter((r: { type: string }) => r.type === 'charge');
    expect(charges).toHaveLength(8);
    expect(charges.every((r: { amount: string }) => r.amount === '-1.000000')).toBe(true);
    expect(charges.every((r: { reference_type: string }) => r.reference_type === 'api_call')).toBe(true);
    const billedIds = [...paid, after].map((r) => r.headers['x-request-id']).sort();
    expect(charges.map((r: { reference_id: string }) => r.reference_id).sort()).toEqual(billedIds);
    expect(new Set(charges.map((r: { balance_after: string }) => r.balance_after)).size).toBe(8);
    const [{ credit_balance }] = await t.db.query(`SELECT credit_balance::text FROM accounts WHERE id = $1`, [account.id]);
    expect(credit_balance).toBe('9999992.000000');
  });

  it('serves the ledger newest first with total null and hasMore', async () => {
    const { key } = await makeAccount(t, { tier: 'max' });
    for (let i = 0; i < 3; i++) expect((await get(t, '/account/credits', key)).status).toBe(200);
    await settle(t);
    const res = await get(t, '/account/credits/transactions?limit=2', key);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ page: 1, limit: 2, total: null, hasMore: true });
    expect(res.body.data.items).toHaveLength(2);
    expect(res.body.data.items[0]).toEqual({
      id: expect.any(String),
      type: 'charge',
      amount: '-1',
      balanceAfter: '99999997',
      referenceType: 'api_call',
      referenceId: expect.any(String),
      notes: null,
      createdAt: expect.stringMatching(/Z$/),
    });
    const last = await get(t, '/account/credits/transactions?limit=2&page=3', key);
    expect(last.body.data).toMatchObject({ page: 3, hasMore: false });
  });

  it('answers 403 INSUFFICIENT_CREDITS when the balance cannot pay, then recovers at the next period', async () => {
    const { key, account } = await makeAccount(t, { tier: 'pro', credits: '2' });
    expect((await get(t, '/account/credits', key)).body.data.balance).toBe('1');
    expect((await get(t, '/account/credits', key)).body.data.balance).toBe('0');
    const refused = await get(t, '/account/credits', key);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: 'INSUFFICIENT_CREDITS', msg: expect.stringContaining('next period'), data: null });
    expect(refused.headers['x-credits-cost']).toBe('0');
    expect(refused.headers['x-credits-remaining']).toBe('0');
    expect((await get(t, '/usage', key)).status).toBe(200);

    // Move the period anchor a month back: the next call belongs to the next period.
    await t.db.query(`UPDATE accounts SET reset_anchor_at = now() - interval '1 month 1 minute' WHERE id = $1`, [account.id]);
    const recovered = await eventually(
      () => get(t, '/account/credits', key),
      (r) => r.status === 200,
    );
    expect(recovered.status).toBe(200);
    expect(recovered.body.data.balance).toBe('9999999');
    await settle(t);
    const rows = await ledgerRows(t, account.id);
    expect(rows.map((r: { type: string }) => r.type)).toEqual(['charge', 'charge', 'period_reset', 'charge']);
    expect(rows[2]).toMatchObject({ amount: '10000000.000000', balance_after: '10000000.000000', reference_type: 'credit_period' });
  });

  it('meters calls and credits per endpoint for /usage, failed calls excluded, and copies them to PostgreSQL', async () => {
    const { key, account } = await makeAccount(t, { tier: 'pro' });
    await get(t, '/account', key);
    await get(t, '/account', key);
    await get(t, '/account/vip', key);
    await get(t, '/account/credits/transactions?limit=9999', key);
    const res = await get(t, '/usage', key);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { endpoint: 'account.summary', calls: 2, credits: '2' },
      { endpoint: 'account.vip', calls: 1, credits: '1' },
      { endpoint: 'usage.list', calls: 1, credits: '0' },
    ]);
    await t.app.get(UsageSyncService).sync();
    const rows = await t.db.query(`SELECT endpoint, calls::int, credits::text FROM usage_counters WHERE account_id = $1 ORDER BY endpoint`, [account.id]);
    expect(rows).toEqual([
      { endpoint: 'account.summary', calls: 2, credits: '2.000000' },
      { endpoint: 'account.vip', calls: 1, credits: '1.000000' },
      { endpoint: 'usage.list', calls: 1, credits: '0.000000' },
    ]);
  });

  it('moves a tier change to the new quota for the rest of the period, keeping the anchor', async () => {
    const { key, wallet } = await makeAccount(t, { tier: 'pro' });
    const before = (await get(t, '/account/credits', key)).body.data;
    await t.app.get(AccountAdminService).setTier({ wallet, tier: 'max' });
    const after = await eventually(
      () => get(t, '/account/credits', key),
      (r) => r.body.data.balance === '99999999',
    );
    expect(after.body.data).toEqual({ balance: '99999999', resetAnchorAt: before.resetAnchorAt });
    expect((await get(t, '/account', key)).body.data).toMatchObject({ tier: 'Max', rpm: 600 });
  });

  it('keeps folding charges into the account balance after a restart that lost the ledger sequence', async () => {
    const prefix = uniqueKeyPrefix();
    const first = await createTestApp(testConfig({ REDIS_KEY_PREFIX: prefix, LEDGER_FLUSH_INTERVAL_MS: '60000' }));
    const { key, account } = await makeAccount(first, { tier: 'pro' });
    for (let i = 0; i < 3; i++) expect((await get(first, '/account/credits', key)).status).toBe(200);
    await settle(first);
    // What an in-process store forgets on every restart (and a Redis that lost its data): the sequence.
    await first.kv.del(BillingKeys.seq);
    await first.close();
    const second = await createTestApp(testConfig({ REDIS_KEY_PREFIX: prefix, LEDGER_FLUSH_INTERVAL_MS: '60000' }));
    try {
      for (let i = 0; i < 2; i++) expect((await get(second, '/account/credits', key)).status).toBe(200);
      await settle(second);
      const [{ credit_balance }] = await second.db.query(`SELECT credit_balance::text FROM accounts WHERE id = $1`, [account.id]);
      expect(credit_balance).toBe('9999995.000000');
      const seqs = (await ledgerSeqs(second, account.id)).map(Number);
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      expect(new Set(seqs).size).toBe(5);
    } finally {
      await second.close();
    }
  });

  it('never bills a Free account', async () => {
    const { key, account } = await makeAccount(t, { tier: 'free' });
    for (let i = 0; i < 3; i++) expect((await get(t, '/account', key)).headers['x-credits-cost']).toBe('0');
    await settle(t);
    expect(await ledgerRows(t, account.id)).toEqual([]);
  });
});

describe('Two replicas sharing one Redis and one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const prefix = uniqueKeyPrefix();
    a = await createTestApp(testConfig({ REDIS_KEY_PREFIX: prefix }));
    b = await createTestApp(testConfig({ REDIS_KEY_PREFIX: prefix }));
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('admits exactly the cap across both and bills each admitted call once', async () => {
    const { key, account } = await makeAccount(a, { tier: 'pro' });
    await waitForFreshWindow();
    const responses = await Promise.all(Array.from({ length: 250 }, (_, i) => get(i % 2 ? a : b, '/account/credits', key)));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(200);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(50);
    await Promise.all([settle(a), settle(b)]);
    await settle(a);
    const [{ count, total }] = await a.db.query(
      `SELECT count(*)::int AS count, sum(amount)::text AS total FROM credit_transactions WHERE account_id = $1 AND type = 'charge'`,
      [account.id],
    );
    expect(count).toBe(200);
    expect(total).toBe('-200.000000');
  });

  it("leaves each charge in the shared outbox at admission, so another replica writes a silent replica's charges", async () => {
    const { key, account } = await makeAccount(a, { tier: 'max' });
    // c never drains on its own during the test (and is closed only afterwards).
    const c = await createTestApp({ ...b.config, ledger: { flushIntervalMs: 60_000 } });
    try {
      const responses = await Promise.all(Array.from({ length: 20 }, () => get(c, '/account', key)));
      expect(responses.every((r) => r.status === 200)).toBe(true);

      // a drains (b's own timer may hold the lease at that moment: then b writes them, which proves the same).
      const count = await eventually(
        async () => {
          await settle(a);
          return (await a.db.query(`SELECT count(*)::int AS count FROM credit_transactions WHERE account_id = $1 AND type = 'charge'`, [account.id]))[0]
            .count as number;
        },
        (n) => n === 20,
      );
      expect(count).toBe(20);
    } finally {
      await c.close();
    }
  });

  it("shows a replica its own calls in /usage at once, and the other replica's after its usage flush", async () => {
    const { key } = await makeAccount(a, { tier: 'pro' });
    for (let i = 0; i < 3; i++) expect((await get(b, '/account', key)).status).toBe(200);
    expect((await get(a, '/account/vip', key)).status).toBe(200);

    const own = await get(a, '/usage', key);
    expect(own.body.data).toContainEqual({ endpoint: 'account.vip', calls: 1, credits: '1' });
    const usage = await eventually(
      () => get(a, '/usage', key),
      (r) => r.body.data.some((u: { endpoint: string }) => u.endpoint === 'account.summary'),
      5000,
    );

    expect(usage.body.data).toEqual([
      { endpoint: 'account.summary', calls: 3, credits: '3' },
      { endpoint: 'account.vip', calls: 1, credits: '1' },
      { endpoint: 'usage.list', calls: expect.any(Number), credits: '0' },
    ]);
  });
});
