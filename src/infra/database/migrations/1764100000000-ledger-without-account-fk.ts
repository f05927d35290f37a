import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ledger keeps no foreign key to accounts. Its rows come only from the ledger flusher (for accounts
 * the key cache read from the database) and from operator commands on existing accounts, and the foreign
 * key check locked the account row once for every charge written: about a quarter of PostgreSQL's CPU per
 * ledger row (docs/benchmarks.md). Accounts are never deleted by the product; a ledger outliving an
 * account is history, as a ledger should be.
 */
export class LedgerWithoutAccountFk1764100000000 implements MigrationInterface {
  name = 'LedgerWithoutAccountFk1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE credit_transactions DROP CONSTRAINT IF EXISTS credit_transactions_account_id_fkey`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Rows of accounts deleted meanwhile would block the constraint: they go first.
    await q.query(`DELETE FROM credit_transactions t WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = t.account_id)`);
    await q.query(
      `ALTER TABLE credit_transactions ADD CONSTRAINT credit_transactions_account_id_fkey
         FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE`,
    );
  }
}
