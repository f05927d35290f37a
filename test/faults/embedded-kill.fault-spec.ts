import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { embeddedEnv, spawnCli } from '../support/child-process';
import { auditBilling, AuditedAccount, exactBooks, Query, readLiveViews, reportAudit, settleBilling } from '../support/faults/billing-audit';
import { BillingLoad } from '../support/faults/billing-load';
import { ServiceReplica } from '../support/faults/service-replica';

/**
 * The embedded default (PGlite, the in-process KV store) killed with -9 under load and started again on
 * its data folder: it runs the postgres credits store, so every call it answered was charged in PGlite
 * first. Afterwards the ledger, the balance and /usage agree to the credit with what the client was
 * charged (the calls in flight at the kill excepted, as for any replica: at most one per call unanswered).
 */
describe('Billing through a kill -9 of the embedded default', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fault-embedded-'));
  let server: ServiceReplica | undefined;

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A query on the stopped server's embedded database, through a process of its own (embedded-query.ts). */
  const query: Query = async (sql, params) => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(__dirname, '..', 'support', 'faults', 'embedded-query.ts'), dataDir, JSON.stringify([{ sql, params }])],
      { cwd: join(__dirname, '..', '..') },
    );
    return (JSON.parse(stdout) as Array<Array<Record<string, string>>>)[0];
  };

  /** The settings of the embedded default: no DATABASE_URL, no REDIS_URL, a data folder. */
  const embedded = () => ({ DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', REDIS_KEY_PREFIX: '', MIGRATIONS_RUN: 'true', CREDITS_STORE: 'auto' });

  async function account(): Promise<AuditedAccount> {
    const wallet = `0x${'ab'.repeat(20)}`;
    const created = await spawnCli(['account:create', '--wallet', wallet, '--tier', 'max', '--json'], embeddedEnv(dataDir));
    expect(created.code).toBe(0);
    const key = await spawnCli(['key:create', '--wallet', wallet, '--json'], embeddedEnv(dataDir));
    expect(key.code).toBe(0);
    return { accountId: created.json.account.id, key: key.json.key, opening: created.json.account.creditBalance };
  }

  it('loses no charge and doubles none across the kill and the restart', async () => {
    const audited = [await account()];
    server = await ServiceReplica.start('embedded', embedded());
    const store = await server.creditsStore();
    const load = new BillingLoad(
      () => [server!.base],
      audited.map((a) => a.key),
      4,
    );
    load.start();
    await load.callsMade(300);
    await server.kill();
    // The calls it was serving end unanswered; the load waits out the restart rather than spin on it.
    await load.stop();
    await server.restart();
    load.start();
    await load.callsMade(200);
    const calls = await load.stop();
    await settleBilling([server]);
    const views = await readLiveViews(server.base, audited);
    await server.stop();

    const books = await auditBilling({ db: query, views, accounts: audited, calls });
    reportAudit('embedded-killed', { faults: 'the embedded default killed with -9, restarted on its folder', calls, books });
    const [b] = books;
    expect(store).toBe('postgres');
    expect(b.unbilledSuccesses).toEqual([]);
    expect([b.settledChange, b.liveChange, b.usage]).toEqual([b.ledger, b.ledger, b.ledger]);
    expect(b.billedWithoutSuccess.length).toBeLessThanOrEqual(b.unanswered);
    if (b.unanswered === 0) expect(b).toEqual(expect.objectContaining(exactBooks(books)[0]));
  });
});
