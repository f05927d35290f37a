import { TestApp } from '../create-test-app';
import { makeAccount } from '../factories';
import { AuditedAccount } from './billing-audit';
import { BillingLoad, CallRecord } from './billing-load';
import { ServiceReplica } from './service-replica';

/** Max accounts to audit (600 calls a minute each), made in PostgreSQL through an app of the test's own. */
export async function auditedAccounts(setup: TestApp, count = 8): Promise<AuditedAccount[]> {
  const made = await Promise.all(Array.from({ length: count }, () => makeAccount(setup, { tier: 'max' })));
  return made.map(({ account, key }) => ({ accountId: account.id, key, opening: account.creditBalance }));
}

/** Replicas of the service, one process each, on the same settings. */
export async function startReplicas(settings: Record<string, string>, names = ['a', 'b']): Promise<ServiceReplica[]> {
  const replicas: ServiceReplica[] = [];
  for (const name of names) replicas.push(await ServiceReplica.start(name, settings));
  return replicas;
}

export interface FaultSchedule {
  /** Calls made before the fault, so it meets a service under load. */
  before: number;
  fault: () => Promise<void>;
  /** Calls made while the fault lasts. */
  during: number;
  recover?: () => Promise<void>;
  /** Calls made after the recovery. */
  after: number;
}

/** The load through a fault, counted in calls rather than time: every call made. */
export async function loadThroughFault(load: BillingLoad, { before, fault, during, recover, after }: FaultSchedule): Promise<CallRecord[]> {
  load.start();
  await load.callsMade(before);
  await fault();
  await load.callsMade(during);
  await recover?.();
  await load.callsMade(after);
  return load.stop();
}
