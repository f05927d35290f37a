import { randomUUID } from 'node:crypto';
import { DataSource, QueryRunner } from 'typeorm';
import { LEDGER_REFERENCE_NAMESPACE } from '../../src/modules/billing/ledger-entry';
import { LedgerReferenceUuid1764300000000 } from '../../src/infra/database/migrations/1764300000000-ledger-reference-uuid';
import { openTestDb } from '../support/test-db';
import { uuidV3 } from '../support/uuid-v3';

/**
 * The migration on a ledger as the previous one left it (reference_id varchar, reset references as text),
 * in a schema of its own so the shared test database keeps its migrated tables.
 */
describe(LedgerReferenceUuid1764300000000.name, () => {
  let db: DataSource;
  let q: QueryRunner;
  const schema = `ledger_ref_${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    db = await openTestDb();
    q = db.createQueryRunner();
    await q.query(`CREATE SCHEMA ${schema}`);
    await q.query(`SET search_path TO ${schema}`);
    await q.query(`CREATE TABLE credit_transactions (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, reference_id varchar(64) NOT NULL, notes text)`);
    await q.query(`CREATE UNIQUE INDEX credit_transactions_reference_uq ON credit_transactions (reference_id)`);
  });
  afterAll(async () => {
    await q.query(`DROP SCHEMA ${schema} CASCADE`);
    await q.release();
    await db.destroy();
  });

  it('checks its own UUIDv3 against the RFC example (www.example.com in the DNS namespace)', () => {
    expect(uuidV3('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('5df41881-3aed-3515-88a7-2f4a814cf09e');
  });

  it('keeps UUID references, turns reset references into their name-based UUIDs with the text in notes, and makes the column uuid', async () => {
    const requestId = randomUUID();
    const resetText = `${randomUUID()}:e2:p5`;
    await q.query(`INSERT INTO credit_transactions (reference_id, notes) VALUES ($1, NULL), ($2, NULL)`, [requestId, resetText]);

    await new LedgerReferenceUuid1764300000000().up(q);

    expect(await q.query(`SELECT reference_id, notes FROM credit_transactions ORDER BY id`)).toEqual([
      { reference_id: requestId, notes: null },
      { reference_id: uuidV3(resetText, LEDGER_REFERENCE_NAMESPACE), notes: `credit period reset ${resetText}` },
    ]);
    const [{ type }] = await q.query(
      `SELECT data_type AS type FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'credit_transactions' AND column_name = 'reference_id'`,
      [schema],
    );
    expect(type).toBe('uuid');
  });
});
