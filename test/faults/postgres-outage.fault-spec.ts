import Redis from 'ioredis';
import { BillingKeys } from '../../src/modules/billing/billing-keys';
import { createTestApp, TestApp } from '../support/create-test-app';
import { FaultProxy } from '../support/fault-proxy';
import { auditBilling, exactBooks, reportAudit, settleBilling } from '../support/faults/billing-audit';
import { auditedAccounts, loadThroughFault, startReplicas } from '../support/faults/fault-run';
import { BillingLoad } from '../support/faults/billing-load';
import { ServiceReplica } from '../support/faults/service-replica';
import { TEST_DATABASE_URL, TEST_REDIS_URL, testConfig, uniqueKeyPrefix } from '../support/test-env';

/**
 * Billing through a PostgreSQL outage, on both credits stores: the database refuses every connection for
 * a while under load (its connections cut), then comes back. Calls that need the database fail (503,
 * never 500, never billed); on the redis store the charges of the others wait in the outbox. Once it is
 * back and billing has settled, every view of every account agrees to the credit.
 */
describe.each([
  ['redis', 'redis'],
  ['postgres', 'postgres'],
])('Billing through a PostgreSQL outage (the %s credits store)', (_name, store) => {
  let setup: TestApp;
  let database: FaultProxy;
  let look: Redis;
  const prefix = uniqueKeyPrefix();
  let replicas: ServiceReplica[] = [];

  beforeAll(async () => {
    const url = new URL(TEST_DATABASE_URL);
    database = await FaultProxy.start({ host: url.hostname, port: Number(url.port || 5432) });
    // Its own KV prefix: an app on the replicas' would drain their outbox straight into PostgreSQL.
    setup = await createTestApp(testConfig());
    look = new Redis(TEST_REDIS_URL, { keyPrefix: prefix });
    replicas = await startReplicas({
      DATABASE_URL: database.urlFor(TEST_DATABASE_URL),
      REDIS_KEY_PREFIX: prefix,
      CREDITS_STORE: store,
      ADMISSION_TIMEOUT_MS: '1500',
    });
  });
  afterAll(async () => {
    for (const r of replicas) await r.stop();
    await database?.close();
    look?.disconnect();
    await setup?.close();
  });

  it('bills each call exactly once when PostgreSQL goes away under load and comes back', async () => {
    const audited = await auditedAccounts(setup);
    const load = new BillingLoad(
      () => replicas.map((r) => r.base),
      audited.map((a) => a.key),
    );
    const calls = await loadThroughFault(load, { before: 300, fault: () => database.refuse(), during: 300, recover: () => database.restore(), after: 300 });
    await settleBilling(replicas, () => look.llen(BillingKeys.outbox));

    const books = await auditBilling({ db: setup.db, base: replicas[0].base, accounts: audited, calls });
    reportAudit(`postgres-outage-${store}`, { faults: 'PostgreSQL refused every connection, then came back', calls, books });
    expect(calls.filter((c) => c.status === 503).length).toBeGreaterThan(0);
    expect(calls.filter((c) => c.status === 500 || c.status === 429)).toEqual([]);
    expect(books).toEqual(exactBooks(books).map((b) => expect.objectContaining(b)));
  });
});
