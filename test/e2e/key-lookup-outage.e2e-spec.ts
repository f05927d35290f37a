import BigNumber from 'bignumber.js';
import request from 'supertest';
import { ErrorCode } from '../../src/common/errors/error-code';
import { AccountRepository } from '../../src/modules/account/account.repository';
import { generateApiKey } from '../../src/modules/account/api-key-format';
import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount, TestAccount } from '../support/factories';
import { FaultProxy } from '../support/fault-proxy';
import { eventually, get } from '../support/http';
import { TEST_DATABASE_URL, testConfig } from '../support/test-env';

const CACHE_TTL_MS = 500;
const DATABASE = new URL(TEST_DATABASE_URL);
const KEY_STORE_UNAVAILABLE = { code: ErrorCode.SERVICE_UNAVAILABLE, msg: expect.stringContaining('key store unavailable'), data: null };

type Answer = Awaited<ReturnType<typeof get>>;

/** The public API on real PostgreSQL behind a proxy that the test takes down ("refuse") and brings back. */
describe('Key lookups during a database outage', () => {
  let proxy: FaultProxy;
  let t: TestApp;
  /** A Pro key called just before the outage, so it is in the key cache. */
  let validated: TestAccount;
  let beforeOutage: Answer;
  /** A Pro key never called before the outage. */
  let uncached: TestAccount;
  let downAt: number;
  /** Reads of the key table (lookups and refresh rounds) that failed: the test waits on these. */
  let failedKeyReads = 0;

  beforeAll(async () => {
    proxy = await FaultProxy.start({ host: DATABASE.hostname, port: Number(DATABASE.port || 5432) });
    t = await createTestApp(testConfig({ DATABASE_URL: proxy.urlFor(TEST_DATABASE_URL), API_KEY_CACHE_TTL_MS: String(CACHE_TTL_MS) }));
    const repository = t.app.get(AccountRepository);
    const read = repository.findCallersByKeyHashes.bind(repository);
    jest.spyOn(repository, 'findCallersByKeyHashes').mockImplementation(async (hashes) => {
      try {
        return await read(hashes);
      } catch (error) {
        failedKeyReads += 1;
        throw error;
      }
    });
    validated = await makeAccount(t, { tier: 'pro', credits: '100' });
    uncached = await makeAccount(t, { tier: 'pro' });
    beforeOutage = await get(t, '/account/credits', validated.key);
    expect(beforeOutage.status).toBe(200);
  });

  afterAll(async () => {
    await proxy.restore();
    await t.close();
    await proxy.close();
  });

  describe('while PostgreSQL refuses connections', () => {
    beforeAll(async () => {
      await proxy.refuse();
      downAt = Date.now();
    });

    it('answers 503 SERVICE_UNAVAILABLE to every lookup of an uncached key from one address, never 500 nor 429', async () => {
      const answers: Answer[] = [];
      for (let i = 0; i < 15; i++) answers.push(await get(t, '/account/credits', uncached.key));
      // Concurrent and unknown ones too: none is counted as an unknown key, so none is refused as one.
      answers.push(...(await Promise.all(Array.from({ length: 15 }, () => get(t, '/account/credits', generateApiKey().plaintext)))));
      for (const res of answers) {
        expect({ status: res.status, body: res.body }).toEqual({ status: 503, body: KEY_STORE_UNAVAILABLE });
        expect(res.body.msg).not.toMatch(new RegExp(`${DATABASE.hostname}|${proxy.port}|${DATABASE.port || 5432}|ECONN`));
        // No key was checked: no window to report, nothing billed.
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
        expect(res.headers['x-credits-cost']).toBe('0');
      }
    });

    it('keeps serving, and billing, a key validated just before the outage past its TTL', async () => {
      // The key's entry has expired: its refresh rounds failed and more than its TTL has passed since its last read.
      await eventually(
        async () => failedKeyReads,
        (failures) => failures > 0 && Date.now() - downAt > 2 * CACHE_TTL_MS,
        10 * CACHE_TTL_MS,
      );
      const served: Answer[] = [];
      for (let i = 0; i < 3; i++) served.push(await get(t, '/account/credits', validated.key));
      expect(served.map((res) => [res.status, res.headers['x-credits-cost']])).toEqual([
        [200, '1'],
        [200, '1'],
        [200, '1'],
      ]);
      const balances = [beforeOutage, ...served].map((res) => new BigNumber(res.body.data.balance));
      expect(balances.slice(1).map((balance, i) => balances[i].minus(balance).toFixed())).toEqual(['1', '1', '1']);
    });

    it('reports the database down on /health/ready without naming its address', async () => {
      const res = await request(t.server as never).get('/health/ready');
      expect({ status: res.status, body: res.body }).toEqual({
        status: 503,
        body: { code: ErrorCode.SERVICE_UNAVAILABLE, msg: 'not ready: database', data: null },
      });
    });
  });

  describe('once PostgreSQL is back', () => {
    beforeAll(() => proxy.restore());

    it('resolves the uncached key on its first call: no lockout of its address', async () => {
      const res = await get(t, '/account/credits', uncached.key);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 200, code: '0' });
      expect(res.headers['x-ratelimit-limit']).toBe('200');
    });

    it('writes the charges taken during the outage to the ledger', async () => {
      const charges = async () =>
        (await t.db.query(`SELECT count(*)::int AS count FROM credit_transactions WHERE account_id = $1 AND type = 'charge'`, [validated.account.id]))[0].count;
      expect(await eventually(charges, (count) => count === 4)).toBe(4);
    });
  });
});

/** The same behind a proxy that swallows every byte: PostgreSQL accepts connections and never answers. */
describe('Key lookups while the database hangs', () => {
  const LOOKUP_TIMEOUT_MS = 300;
  let proxy: FaultProxy;
  let t: TestApp;
  let validated: TestAccount;
  let uncached: TestAccount;

  beforeAll(async () => {
    proxy = await FaultProxy.start({ host: DATABASE.hostname, port: Number(DATABASE.port || 5432) });
    t = await createTestApp(
      testConfig({
        DATABASE_URL: proxy.urlFor(TEST_DATABASE_URL),
        API_KEY_CACHE_TTL_MS: String(CACHE_TTL_MS),
        API_KEY_LOOKUP_TIMEOUT_MS: String(LOOKUP_TIMEOUT_MS),
      }),
    );
    validated = await makeAccount(t, { tier: 'pro' });
    uncached = await makeAccount(t, { tier: 'pro' });
    expect((await get(t, '/account/credits', validated.key)).status).toBe(200);
  });

  afterAll(async () => {
    proxy.setMode('pass');
    // The connections that hung end, as a restarted server's would, so the pool can close.
    proxy.cutAll();
    await t.close();
    await proxy.close();
  });

  // Bounded well below jest's default: without the lookup timeout these requests never end.
  it('answers an uncached key 503 once its lookup times out, and keeps serving the validated key past its TTL', async () => {
    proxy.setMode('blackhole');
    const hungAt = Date.now();
    const res = await get(t, '/account/credits', uncached.key);
    expect({ status: res.status, body: res.body }).toEqual({ status: 503, body: KEY_STORE_UNAVAILABLE });
    // Called across its expiry, paced well under the key's per-minute window.
    const statuses: number[] = [];
    while (Date.now() - hungAt <= 2 * CACHE_TTL_MS) {
      statuses.push((await get(t, '/account/credits', validated.key)).status);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(new Set(statuses)).toEqual(new Set([200]));
  }, 30_000);

  it('resolves the uncached key once the database answers again', async () => {
    proxy.setMode('pass');
    proxy.cutAll();
    const res = await get(t, '/account/credits', uncached.key);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 200, code: '0' });
  });
});
