import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { Decimal } from '../../../src/common/decimal/decimal';
import { waitFor } from '../child-process';
import { CallRecord } from './billing-load';
import { ServiceReplica } from './service-replica';

export interface AuditedAccount {
  accountId: string;
  key: string;
  /** The balance before the load, in credits. */
  opening: string;
}

/** One account's books after the load, every figure in credits. */
export interface AccountBooks {
  accountId: string;
  /** Sum of X-Credits-Cost of the 2xx answers its client received. */
  clientCharged: string;
  /** Opening minus PostgreSQL's balance. */
  settledChange: string;
  /** Opening minus the live balance a call reports (X-Credits-Remaining of a free /usage call). */
  liveChange: string;
  /** Sum of its charge rows in the ledger. */
  ledger: string;
  /** Sum of credits /usage reports. */
  usage: string;
  /** Charged 2xx answers without a ledger row (a lost charge). */
  unbilledSuccesses: string[];
  /** Ledger charges whose request got no 2xx answer (a failed call billed, or a call whose answer never arrived). */
  billedWithoutSuccess: Array<{ requestId: string; credits: string }>;
  /** Calls that got no answer at all. */
  unanswered: number;
}

/**
 * Waits until billing has settled after a fault: no void or give-up still pending on any running replica,
 * and (on the redis credits store) the ledger outbox empty. `outboxLength` reads it from the test's side.
 */
export async function settleBilling(replicas: ServiceReplica[], outboxLength: () => Promise<number> = async () => 0): Promise<void> {
  await waitFor(
    'billing to settle',
    async () => {
      for (const r of replicas.filter((replica) => replica.running)) if ((await r.metric('billing_settlements_pending')) !== 0) return false;
      return (await outboxLength()) === 0;
    },
    60_000,
  );
}

/** A query on the service's database: a TypeORM DataSource's, or one opened on the embedded folder. */
export type Query = (sql: string, params: unknown[]) => Promise<Array<Record<string, string>>>;

/** What the service itself tells an account: its live balance and its /usage credits. */
export interface LiveView {
  live: string;
  usage: string;
}

/** Each account's live balance (X-Credits-Remaining of a free /usage call) and /usage credits, from a running replica. */
export async function readLiveViews(base: string, accounts: AuditedAccount[]): Promise<Map<string, LiveView>> {
  const views = new Map<string, LiveView>();
  for (const account of accounts) {
    const res = await fetch(`${base}/api/public/v1/usage`, { headers: { 'x-api-key': account.key } });
    const body = (await res.json()) as { data: Array<{ credits: string }> };
    views.set(account.accountId, { live: res.headers.get('x-credits-remaining') ?? 'NaN', usage: sum(body.data.map((u) => u.credits)) });
  }
  return views;
}

/**
 * A billing audit as Stripe- or Unkey-style checks make it: per account, what its client was charged,
 * how its balance moved (settled and live), what the ledger holds and what /usage says, and which request
 * ids differ between the client's view and the ledger. `base` is a running replica to ask /usage of; or
 * `views`, read before the service stopped.
 */
export async function auditBilling({
  db,
  base,
  views,
  accounts,
  calls,
}: {
  db: DataSource | Query;
  base?: string;
  views?: Map<string, LiveView>;
  accounts: AuditedAccount[];
  calls: CallRecord[];
}): Promise<AccountBooks[]> {
  const query: Query = typeof db === 'function' ? db : (sql, params) => db.query(sql, params);
  const live = views ?? (await readLiveViews(base!, accounts));
  const books: AccountBooks[] = [];
  for (const account of accounts) {
    const mine = calls.filter((c) => c.key === account.key);
    const succeeded = new Map(mine.filter((c) => c.status !== null && c.status < 300 && c.requestId).map((c) => [c.requestId!, c]));
    const charges = await query(
      `SELECT reference_id::text, (-amount)::text AS credits FROM credit_transactions
        WHERE account_id = $1 AND type = 'charge' AND reference_type = 'api_call'`,
      [account.accountId],
    );
    const charged = new Map(charges.map((c) => [c.reference_id, c.credits]));
    const [{ balance }] = await query(`SELECT credit_balance::text AS balance FROM accounts WHERE id = $1`, [account.accountId]);
    const view = live.get(account.accountId)!;
    books.push({
      accountId: account.accountId,
      clientCharged: sum(mine.filter((c) => c.status !== null && c.status < 300).map((c) => String(c.cost))),
      settledChange: new Decimal(account.opening).minus(balance).toFixed(),
      liveChange: new Decimal(account.opening).minus(view.live).toFixed(),
      ledger: sum(charges.map((c) => c.credits)),
      usage: view.usage,
      unbilledSuccesses: [...succeeded.values()].filter((c) => c.cost > 0 && !charged.has(c.requestId!)).map((c) => c.requestId!),
      billedWithoutSuccess: charges.filter((c) => !succeeded.has(c.reference_id)).map((c) => ({ requestId: c.reference_id, credits: c.credits })),
      unanswered: mine.filter((c) => c.status === null).length,
    });
  }
  return books;
}

/** The books as they must be when nothing was lost or doubled: every view of every account agrees. */
export function exactBooks(books: AccountBooks[]): Array<Partial<AccountBooks>> {
  return books.map((b) => ({
    accountId: b.accountId,
    clientCharged: b.clientCharged,
    settledChange: b.clientCharged,
    liveChange: b.clientCharged,
    ledger: b.clientCharged,
    usage: b.clientCharged,
    unbilledSuccesses: [],
    billedWithoutSuccess: [],
  }));
}

/** The audit's figures, for the closing note and docs/benchmarks.md: one line printed, one JSON file in test-artifacts/faults. */
export function reportAudit(scenario: string, { faults, calls, books }: { faults: string; calls: CallRecord[]; books: AccountBooks[] }): void {
  const mismatches = books.filter((b) => new Set([b.clientCharged, b.settledChange, b.liveChange, b.ledger, b.usage]).size > 1).length;
  const summary = {
    scenario,
    faults,
    requests: calls.length,
    answered2xx: calls.filter((c) => c.status !== null && c.status < 300).length,
    answered503: calls.filter((c) => c.status === 503).length,
    unanswered: calls.filter((c) => c.status === null).length,
    accounts: books.length,
    creditsCompared: sum(books.map((b) => b.clientCharged)),
    accountsWithMismatch: mismatches,
    billedWithoutSuccess: books.reduce((n, b) => n + b.billedWithoutSuccess.length, 0),
    unbilledSuccesses: books.reduce((n, b) => n + b.unbilledSuccesses.length, 0),
  };
  const dir = join(__dirname, '..', '..', '..', 'test-artifacts', 'faults');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${scenario}.json`), `${JSON.stringify({ summary, books }, null, 2)}\n`);
  process.stdout.write(`billing audit ${JSON.stringify(summary)}\n`);
}

function sum(values: string[]): string {
  return values.reduce((total, v) => total.plus(v), new Decimal(0)).toFixed();
}
