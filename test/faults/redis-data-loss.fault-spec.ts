import { createTestApp, TestApp } from '../support/create-test-app';
import { auditBilling, exactBooks, reportAudit, settleBilling } from '../support/faults/billing-audit';
import { auditedAccounts, loadThroughFault, startReplicas } from '../support/faults/fault-run';
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
  let replicas: ServiceReplica[] = [];

  beforeAll(async () => {
    redis = await PrivateRedis.start({ aof: false });
    setup = await createTestApp(testConfig());
    replicas = await startReplicas({
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: uniqueKeyPrefix(),
      CREDITS_STORE: 'auto',
      ADMISSION_TIMEOUT_MS: '1500',
      REDIS_COMMAND_TIMEOUT_MS: '500',
    });
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
    const audited = await auditedAccounts(setup);
    const load = new BillingLoad(
      () => replicas.map((r) => r.base),
      audited.map((a) => a.key),
    );
    const calls = await loadThroughFault(load, { before: 300, fault: () => redis.kill(), during: 50, recover: () => redis.restart(), after: 300 });
    await settleBilling(replicas);

    const books = await auditBilling({ db: setup.db, base: replicas[0].base, accounts: audited, calls });
    reportAudit('redis-data-lost', { faults: 'Redis without AOF killed with -9, restarted empty', calls, books });
    expect(calls.filter((c) => c.status === 500)).toEqual([]);
    expect(books).toEqual(exactBooks(books).map((b) => expect.objectContaining(b)));
  });
});
