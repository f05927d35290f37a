import Redis from 'ioredis';
import { Decimal } from '../../src/common/decimal/decimal';
import { BillingKeys } from '../../src/modules/billing/billing-keys';
import { createTestApp, TestApp } from '../support/create-test-app';
import { auditBilling, reportAudit, settleBilling } from '../support/faults/billing-audit';
import { auditedAccounts, loadThroughFault, startReplicas } from '../support/faults/fault-run';
import { BillingLoad } from '../support/faults/billing-load';
import { ServiceReplica } from '../support/faults/service-replica';
import { TEST_DATABASE_URL, TEST_REDIS_URL, testConfig, uniqueKeyPrefix } from '../support/test-env';

/**
 * Billing through a replica killed with -9 mid-load (the redis credits store): nothing it answered goes
 * unbilled and nothing is billed twice; the calls it was still serving when it died got no answer, and
 * are billed (docs/decisions.md, "Billing through faults": a call is charged at admission, and a process
 * that dies cannot take back what it had not yet answered), at most one per call left unanswered.
 */
describe('Billing through a replica killed mid-load', () => {
  let setup: TestApp;
  let look: Redis;
  const prefix = uniqueKeyPrefix();
  let replicas: ServiceReplica[] = [];

  beforeAll(async () => {
    setup = await createTestApp(testConfig());
    look = new Redis(TEST_REDIS_URL, { keyPrefix: prefix });
    replicas = await startReplicas({ DATABASE_URL: TEST_DATABASE_URL, REDIS_KEY_PREFIX: prefix, CREDITS_STORE: 'redis' });
  });
  afterAll(async () => {
    for (const r of replicas) await r.stop();
    look?.disconnect();
    await setup?.close();
  });

  it('loses no charge and doubles none; the calls the dead replica left unanswered are the only ones billed without an answer', async () => {
    const audited = await auditedAccounts(setup);
    const load = new BillingLoad(
      () => replicas.filter((r) => r.running).map((r) => r.base),
      audited.map((a) => a.key),
    );
    const calls = await loadThroughFault(load, { before: 400, fault: () => replicas[0].kill(), during: 0, after: 300 });
    await settleBilling(replicas, () => look.llen(BillingKeys.outbox));

    const books = await auditBilling({ db: setup.db, base: replicas[1].base, accounts: audited, calls });
    reportAudit('replica-killed', { faults: 'one of two replicas killed with -9 under load', calls, books });
    for (const b of books) {
      expect(b.unbilledSuccesses).toEqual([]);
      expect([b.settledChange, b.liveChange, b.usage]).toEqual([b.ledger, b.ledger, b.ledger]);
      const billedUnanswered = b.billedWithoutSuccess.reduce((total, c) => total.plus(c.credits), new Decimal(0));
      expect(new Decimal(b.ledger).minus(b.clientCharged).toFixed()).toBe(billedUnanswered.toFixed());
      expect(b.billedWithoutSuccess.length).toBeLessThanOrEqual(b.unanswered);
    }
  });
});
