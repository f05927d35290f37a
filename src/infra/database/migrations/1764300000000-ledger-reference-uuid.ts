import { MigrationInterface, QueryRunner } from 'typeorm';

// The ledger's namespace, written out: a migration is fixed once run, and infra imports no module
// (LEDGER_REFERENCE_NAMESPACE in the billing module's ledger-entry.ts; its integration test checks they agree).
const LEDGER_REFERENCE_NAMESPACE = '4f3b4397-13b3-4189-8c7f-e91df7f1ce52';

/**
 * The ledger's reference becomes a uuid column: 16 bytes in the unique index instead of a ~37-byte
 * string, which costs PostgreSQL ~1–1.5 µs less per ledger row written (docs/benchmarks.md, seventh
 * session). Charges, voids and operator adjustments already carry UUIDs (request ids, random UUIDs).
 * A period reset's reference, `<account>:e<epoch>:p<period>`, becomes the name-based UUID
 * (version 3, RFC 9562) of that text in the ledger's namespace, computed by ledger_reference_uuid both
 * here and when the ledger writes a reset, so a replayed reset still meets its row; the readable text
 * moves to the row's notes.
 */
export class LedgerReferenceUuid1764300000000 implements MigrationInterface {
  name = 'LedgerReferenceUuid1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION ledger_reference_uuid(name text) RETURNS uuid LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT encode(set_byte(set_byte(h, 6, (get_byte(h, 6) & 15) | 48), 8, (get_byte(h, 8) & 63) | 128), 'hex')::uuid
          FROM (SELECT decode(md5('\\x${LEDGER_REFERENCE_NAMESPACE.replace(/-/g, '')}'::bytea || convert_to(name, 'UTF8')), 'hex') AS h) named
      $$`);
    await q.query(`
      UPDATE credit_transactions
         SET notes = coalesce(notes, 'credit period reset ' || reference_id), reference_id = ledger_reference_uuid(reference_id)::text
       WHERE reference_id !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`);
    await q.query(`ALTER TABLE credit_transactions ALTER COLUMN reference_id TYPE uuid USING reference_id::uuid`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Converted reset references stay UUIDs (their text is in notes); new ones would again be text.
    await q.query(`ALTER TABLE credit_transactions ALTER COLUMN reference_id TYPE varchar(64) USING reference_id::text`);
    await q.query(`DROP FUNCTION ledger_reference_uuid(text)`);
  }
}
