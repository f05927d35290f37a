import Redis from 'ioredis';
import { BillingKeys } from '../../src/modules/billing/billing-keys';
import { createTestApp, TestApp } from '../support/create-test-app';
import { FaultProxy } from '../support/fault-proxy';
import { auditBilling, exactBooks, reportAudit, settleBilling } from '../support/faults/billing-audit';
import { auditedAccounts, loadThroughFault, startReplicas } from '../support/faults/fault-run';
import { BillingLoad } from '../support/faults/billing-load';
import { PrivateRedis } from '../support/faults/redis-server';
import { ServiceReplica } from '../support/faults/service-replica';
import { TEST_DATABASE_URL, testConfig, uniqueKeyPrefix } from '../support/test-env';

/**
 * Billing through Redis faults, on two replicas sharing one PostgreSQL and one Redis that keeps an
 * append-only file (so CREDITS_STORE=auto runs the redis store): replies lost on a dropped connection,
 * and Redis killed with -9 and started again. After each fault settles, every view of every account
 * agrees to the credit with what its client was charged.
 */
describe('Billing through Redis faults (the redis credits store)', () => {
  let setup: TestApp;
  let redis: PrivateRedis;
  let proxy: FaultProxy;
  let look: Redis;
  const prefix = uniqueKeyPrefix();
  let replicas: ServiceReplica[] = [];

  beforeAll(async () => {
    redis = await PrivateRedis.start({ aof: true });
    proxy = await FaultProxy.start({ host: '127.0.0.1', port: redis.port });
    look = redis.client();
    // Accounts are made in PostgreSQL by an app of the test's own (its KV store is not the replicas').
    setup = await createTestApp(testConfig());
    replicas = await startReplicas({
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: proxy.urlFor(redis.url),
      REDIS_KEY_PREFIX: prefix,
      CREDITS_STORE: 'auto',
      ADMISSION_TIMEOUT_MS: '1500',
      REDIS_COMMAND_TIMEOUT_MS: '500',
    });
  });
  afterAll(async () => {
    for (const r of replicas) await r.stop();
    look?.disconnect();
    await proxy?.close();
    await redis?.stop();
    await setup?.close();
  });

  const outboxLength = () => look.llen(`${prefix}${BillingKeys.outbox}`);
  const bases = () => replicas.map((r) => r.base);

  it('runs on the redis store when Redis keeps an append-only file', async () => {
    for (const r of replicas) expect(await r.creditsStore()).toBe('redis');
  });

  it('bills each call exactly once while Redis replies are lost and connections dropped', async () => {
    const audited = await auditedAccounts(setup);
    const load = new BillingLoad(
      bases,
      audited.map((a) => a.key),
    );
    const calls = await loadThroughFault(load, {
      before: 200,
      // Every 100 calls, the next reply of Redis is lost and its connection cut, ten times over.
      fault: async () => {
        for (let fault = 0; fault < 10; fault++) {
          proxy.dropNextReplies(1);
          await load.callsMade(100);
        }
      },
      during: 0,
      after: 100,
    });
    await settleBilling(replicas, outboxLength);

    const books = await auditBilling({ db: setup.db, base: replicas[0].base, accounts: audited, calls });
    reportAudit('redis-replies-lost', { faults: `${proxy.droppedReplies} replies lost with their connections`, calls, books });
    expect(proxy.droppedReplies).toBeGreaterThanOrEqual(10);
    expect(books).toEqual(exactBooks(books).map((b) => expect.objectContaining(b)));
  });

  it('bills each call exactly once when Redis is killed with -9 and started again on its append-only file', async () => {
    const audited = await auditedAccounts(setup);
    const load = new BillingLoad(
      bases,
      audited.map((a) => a.key),
    );
    // Calls go on meeting a dead Redis (answered 503) until it is back.
    const calls = await loadThroughFault(load, { before: 300, fault: () => redis.kill(), during: 50, recover: () => redis.restart(), after: 300 });
    await settleBilling(replicas, outboxLength);

    const books = await auditBilling({ db: setup.db, base: replicas[0].base, accounts: audited, calls });
    reportAudit('redis-killed-aof', { faults: 'Redis killed with -9, restarted on its AOF', calls, books });
    expect(calls.filter((c) => c.status === 503).length).toBeGreaterThan(0);
    expect(calls.filter((c) => c.status === 500)).toEqual([]);
    expect(books).toEqual(exactBooks(books).map((b) => expect.objectContaining(b)));
  });
});
