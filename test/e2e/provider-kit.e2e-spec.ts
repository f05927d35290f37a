import { LedgerFlusherService } from '../../src/modules/billing/ledger-flusher.service';
import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { get } from '../support/http';
import { KitTestModule, KitTestSettings } from '../support/kit/kit-test.module';
import { startStubUpstream, StubReply, StubUpstream } from '../support/kit/stub-upstream';
import { resetDb } from '../support/reset-db';
import { testConfig, uniqueKeyPrefix } from '../support/test-env';

const FRESH_TTL_MS = 1_000;
const UPSTREAM_TIMEOUT_MS = 300;

/** What a client sees of any upstream failure. */
const UPSTREAM_ERROR_BODY = { code: 'MARKET_UPSTREAM_ERROR', msg: 'upstream data source unavailable', data: null };

describe('Provider kit over HTTP', () => {
  let stub: StubUpstream;
  /** Two replicas on one KV store, and a third whose provider is switched off. */
  let replica: TestApp;
  let otherReplica: TestApp;
  let switchedOff: TestApp;
  let symbolSeq = 0;
  /** A symbol no earlier test has cached. */
  const freshSymbol = () => `SYM${++symbolSeq}`;

  beforeAll(async () => {
    stub = await startStubUpstream();
    const config = testConfig({ LEDGER_FLUSH_INTERVAL_MS: '60000', REDIS_KEY_PREFIX: uniqueKeyPrefix() });
    const settings: KitTestSettings = { upstreamUrl: stub.url, vendor: 'stub', timeoutMs: UPSTREAM_TIMEOUT_MS, freshTtlMs: FRESH_TTL_MS };
    replica = await createTestApp(config, [KitTestModule.register(settings)]);
    otherReplica = await createTestApp(config, [KitTestModule.register(settings)]);
    switchedOff = await createTestApp(config, [KitTestModule.register({ ...settings, vendor: 'none' })]);
    await resetDb(replica.db);
  });
  afterAll(async () => {
    await Promise.all([replica.close(), otherReplica.close(), switchedOff.close()]);
    await stub.close();
  });
  beforeEach(() => {
    stub.requests.length = 0;
    stub.reply({ status: 200, body: { symbol: 'X', price: '1' } });
  });

  const priceOf = (t: TestApp, symbol: string, key: string) => get(t, `/kit-test/prices/${symbol}`, key);

  function expectNothingOfTheUpstream(res: { text: string; headers: Record<string, string> }) {
    expect(res.text).not.toContain(stub.host);
    expect(res.text).not.toContain(String(stub.port));
    expect(res.text).not.toMatch(/\b(404|429|500)\b/);
    expect(res.headers['retry-after']).toBeUndefined();
  }

  it('serves the upstream value, billed once', async () => {
    const { key } = await makeAccount(replica, { tier: 'pro' });
    stub.reply({ status: 200, body: { symbol: 'BTC', price: '101.25' } });

    const res = await priceOf(replica, freshSymbol(), key);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: '0', msg: 'success', data: { symbol: 'BTC', price: '101.25' } });
    expect(res.headers['x-credits-cost']).toBe('1');
  });

  it.each<[string, StubReply]>([
    ['a 429', { status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '0' } }],
    ['a 404', { status: 404, body: { error: 'no such coin' } }],
    ['a 500', { status: 500, body: { error: 'boom at 127.0.0.1' } }],
    ['a timeout', 'hang'],
  ])('answers %s of the upstream 502 MARKET_UPSTREAM_ERROR, naming nothing of it, unbilled', async (_name, reply) => {
    const { key } = await makeAccount(replica, { tier: 'pro' });
    stub.reply(reply);

    const res = await priceOf(replica, freshSymbol(), key);

    expect(res.status).toBe(502);
    expect(res.body).toEqual(UPSTREAM_ERROR_BODY);
    expect(res.headers['x-credits-cost']).toBe('0');
    expect(res.headers['x-credits-remaining']).toBe('10000000');
    expectNothingOfTheUpstream(res);
    expect(stub.requests.length).toBe(reply !== 'hang' && reply.status === 404 ? 1 : 2);
  });

  it('serves a fresh value without asking the upstream, and the last value while the upstream fails', async () => {
    const { key } = await makeAccount(replica, { tier: 'pro' });
    const symbol = freshSymbol();
    stub.reply({ status: 200, body: { symbol, price: '7.5' } });
    expect((await priceOf(replica, symbol, key)).status).toBe(200);
    expect((await priceOf(replica, symbol, key)).body.data).toEqual({ symbol, price: '7.5' });
    expect(stub.requests).toHaveLength(1);

    await new Promise((resolve) => setTimeout(resolve, FRESH_TTL_MS + 50));
    stub.reply({ status: 500, body: null });
    const stale = await priceOf(replica, symbol, key);

    expect(stale.status).toBe(200);
    expect(stale.body.data).toEqual({ symbol, price: '7.5' });
    expect(stub.requests).toHaveLength(3);
  });

  it('shares a cached value between two app instances: the second makes no upstream call', async () => {
    const { key } = await makeAccount(replica, { tier: 'pro' });
    const symbol = freshSymbol();
    stub.reply({ status: 200, body: { symbol, price: '3' } });
    await priceOf(replica, symbol, key);
    stub.reply({ status: 200, body: { symbol, price: '4' } });

    const res = await priceOf(otherReplica, symbol, key);

    expect(res.body.data).toEqual({ symbol, price: '3' });
    expect(stub.requests).toHaveLength(1);
  });

  it('answers 503 MARKET_DATA_DISABLED when the provider is switched off, without calling the upstream', async () => {
    const { key } = await makeAccount(switchedOff, { tier: 'pro' });

    const res = await priceOf(switchedOff, freshSymbol(), key);

    expect(res.status).toBe(503);
    expect(res.body).toEqual({ code: 'MARKET_DATA_DISABLED', msg: 'market data: disabled or not configured', data: null });
    expect(res.headers['x-credits-cost']).toBe('0');
    expect(stub.requests).toHaveLength(0);
  });

  it('leaves the balance and the ledger as they were after upstream failures and a switched-off provider', async () => {
    const { key, account } = await makeAccount(replica, { tier: 'pro' });
    expect((await get(replica, '/account/credits', key)).body.data.balance).toBe('9999999');

    stub.reply({ status: 429, body: null, headers: { 'retry-after': '0' } });
    const failed = [await priceOf(replica, freshSymbol(), key), await priceOf(otherReplica, freshSymbol(), key)];
    stub.reply('hang');
    failed.push(await priceOf(replica, freshSymbol(), key));
    failed.push(await priceOf(switchedOff, freshSymbol(), key));
    expect(failed.map((r) => r.status)).toEqual([502, 502, 502, 503]);

    expect((await get(replica, '/account/credits', key)).body.data.balance).toBe('9999998');
    await replica.app.get(LedgerFlusherService).flush();
    const rows = await replica.db.query(
      `SELECT type, endpoint, reference_id FROM credit_transactions WHERE account_id = $1 AND type <> 'adjustment' ORDER BY id`,
      [account.id],
    );
    expect(rows.map((r: { type: string; endpoint: string }) => `${r.type} ${r.endpoint}`)).toEqual(['charge account.credits', 'charge account.credits']);
    const failedIds = failed.map((r) => r.headers['x-request-id']);
    expect(rows.filter((r: { reference_id: string }) => failedIds.includes(r.reference_id))).toEqual([]);
  });
});
