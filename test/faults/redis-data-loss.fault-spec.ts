import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { AuditedAccount, auditBilling, exactBooks, reportAudit, settleBilling } from '../support/faults/billing-audit';
import { BillingLoad } from '../support/faults/billing-load';
import { PrivateRedis } from '../support/faults/redis-server';
import { ServiceReplica } from '../support/faults/service-replica';
import { TEST_DATABASE_URL, testConfig, uniqueKeyPrefix } from '../support/test-env';

/**
 * Billing through a Redis that loses everything: no append-only file, killed with -9 and started empty.
 * CREDITS_STORE=auto then runs the postgres store, so the money never was in Redis: every view of every
 * account agrees to the credit afterwards, with windows, records and caches gone.
 */
describe('Billing through a Redis that loses its data (the postgres credits store)', () => {
  let setup: TestApp;
  let redis: PrivateRedis;
  const replicas: ServiceReplica[] = [];

  beforeAll(async () => {
    redis = await PrivateRedis.start({ aof: false });
    setup = await createTestApp(testConfig());
    const prefix = uniqueKeyPrefix();
    for (const name of ['a', 'b']) {
      replicas.push(
        await ServiceReplica.start(name, {
          DATABASE_URL: TEST_DATABASE_URL,
          REDIS_URL: redis.url,
          REDIS_KEY_PREFIX: prefix,
          CREDITS_STORE: 'auto',
          ADMISSION_TIMEOUT_MS: '1500',
          REDIS_COMMAND_TIMEOUT_MS: '500',
        }),
      );
    }
  });
  afterAll(async () => {
    for (const r of replicas) await r.stop();
    await redis?.stop();
    await setup?.close();
  });

  it('runs on the postgres store when Redis keeps no append-only file', async () => {
    for (const r of replicas) expect(await r.creditsStore()).toBe('postgres');
  });

  it('bills each call exactly once when Redis is killed with -9 and comes back empty', async () => {
    const made = await Promise.all(Array.from({ length: 8 }, () => makeAccount(setup, { tier: 'max' })));
    const audited: AuditedAccount[] = made.map(({ account, key }) => ({ accountId: account.id, key, opening: account.creditBalance }));
    const load = new BillingLoad(
      () => replicas.map((r) => r.base),
      audited.map((a) => a.key),
    );
    load.start();
    await load.callsMade(300);
    await redis.kill();
    await load.callsMade(50);
    await redis.restart();
    await load.callsMade(300);
    const calls = await load.stop();
    await settleBilling(replicas);

    const books = await auditBilling({ db: setup.db, base: replicas[0].base, accounts: audited, calls });
    reportAudit('redis-data-lost', { faults: 'Redis without AOF killed with -9, restarted empty', calls, books });
    expect(calls.filter((c) => c.status === 500)).toEqual([]);
    expect(books).toEqual(exactBooks(books).map((b) => expect.objectContaining(b)));
  });
});
