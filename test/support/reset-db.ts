import { DataSource } from 'typeorm';

/** Empties every table the spine owns (migrations stay applied). */
export async function resetDb(db: DataSource): Promise<void> {
  await db.query('TRUNCATE usage_counters, credit_transactions, api_keys, accounts CASCADE');
}
