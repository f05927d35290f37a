import Redis from 'ioredis';
import { Client } from 'pg';

/** Leaves the shared test database and Redis as they were: only this run's accounts and key prefix go. */
export async function cleanUpRun({
  redisUrl,
  databaseUrl,
  prefix,
  wallets,
}: {
  redisUrl: string;
  databaseUrl: string;
  prefix: string;
  wallets: string[];
}): Promise<void> {
  if (process.env.BENCH_KEEP_DATA === '1') return;
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  try {
    let cursor = '0';
    do {
      const [nextCursor, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (found.length > 0) await redis.unlink(...found);
      cursor = nextCursor;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  if (wallets.length === 0) return;
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    // The ledger keeps no foreign key to accounts (it is history); api_keys and usage_counters cascade.
    await db.query('DELETE FROM credit_transactions WHERE account_id IN (SELECT id FROM accounts WHERE wallet_address = ANY($1))', [wallets]);
    await db.query('DELETE FROM accounts WHERE wallet_address = ANY($1)', [wallets]);
    // A run deletes ~100k ledger rows; with autovacuum off (as on the dev box) the dead rows would stay
    // and slow every later run's inserts and key lookups, so reclaim them now.
    await db.query('VACUUM (ANALYZE) credit_transactions, usage_counters, api_keys, accounts');
  } finally {
    await db.end();
  }
}
