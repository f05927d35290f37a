import { INestApplication } from '@nestjs/common';
import { get as httpGet } from 'node:http';
import { AddressInfo } from 'node:net';
import { LedgerFlusherService } from '../../src/modules/billing/ledger-flusher.service';
import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { HELD_CALL, HeldUpstream } from '../support/held-upstream';
import { eventually, PUBLIC } from '../support/http';
import { testConfig } from '../support/test-env';

/** The live balance as a free call reports it (X-Credits-Remaining of /usage). */
async function liveBalance(base: string, key: string): Promise<string | null> {
  return (await fetch(`${base}${PUBLIC}/usage`, { headers: { 'x-api-key': key } })).headers.get('x-credits-remaining');
}

async function charges(t: TestApp, accountId: string): Promise<number> {
  await t.app.get(LedgerFlusherService).flush();
  const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM credit_transactions WHERE account_id = $1 AND type = 'charge'`, [accountId]);
  return n;
}

/**
 * Contract 7.1: a successful request is billed, a failed one never. A client that leaves before its answer
 * was written (it timed out, it went away) got no success: its call is refunded, as a failed one is.
 */
describe.each(['redis', 'postgres'])('A call whose client leaves before its answer (the %s credits store)', (store) => {
  let upstream: HeldUpstream;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    upstream = new HeldUpstream();
    await upstream.start();
    t = await createTestApp(testConfig({ COINGECKO_API_URL: upstream.url, CREDITS_STORE: store }));
    const app: INestApplication = t.app;
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await upstream.stop();
    await t.close();
  });

  it('is refunded: the balance comes back and no charge stays in the ledger', async () => {
    const { key, account } = await makeAccount(t, { tier: 'pro' });
    const before = await liveBalance(base, key);

    const req = httpGet(`${base}${PUBLIC}${HELD_CALL}`, { headers: { 'x-api-key': key } });
    req.on('error', () => undefined);
    // Admitted and charged: the call waits on the upstream inside its handler.
    await upstream.arrived();
    expect(await liveBalance(base, key)).toBe(String(Number(before) - 1));
    req.destroy();

    expect(
      await eventually(
        () => liveBalance(base, key),
        (balance) => balance === before,
      ),
    ).toBe(before);
    upstream.release();
    expect(await charges(t, account.id)).toBe(0);
  });

  it('keeps the charge of an answer written whole (its connection closes after it)', async () => {
    const { key, account } = await makeAccount(t, { tier: 'pro' });

    const res = await fetch(`${base}${PUBLIC}/account/credits`, { headers: { 'x-api-key': key, connection: 'close' } });
    await res.text();

    expect([res.status, res.headers.get('x-credits-cost')]).toEqual([200, '1']);
    expect(await charges(t, account.id)).toBe(1);
    expect(await liveBalance(base, key)).toBe('9999999');
  });
});
