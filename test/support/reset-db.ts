import { DataSource } from 'typeorm';

/** Empties every table the service owns (migrations stay applied; snapshot partitions are dropped). */
export async function resetDb(db: DataSource): Promise<void> {
  const partitions: Array<{ name: string }> = await db.query(
    `SELECT c.relname AS name FROM pg_class c WHERE c.relkind = 'r' AND c.relname ~ '^hl_[a-z_]+_s[0-9]+$'`,
  );
  for (const { name } of partitions) await db.query(`DROP TABLE IF EXISTS ${name}`);
  await db.query(
    `TRUNCATE reward_leaves, reward_rounds, reward_claim_scans, points_transactions, points_balances, builder_fills, builder_fill_days,
              opc_revenue_entries, opc_configs, referral_bindings, account_tier_changes, usage_counters, usage_daily, credit_transactions, watchlist_entries, watchlist_groups, notifications, notification_settings, notification_conditions, cohort_addresses, cohorts, api_keys, accounts,
              hl_addresses, hl_markets, hl_mids, hl_mid_samples, hl_positions, hl_spot_balances, hl_trades, hl_fills, hl_feed_reads,
              hl_current_snapshots, hl_snapshot_coins, hl_snapshots, job_runs, asset_quotes, assets CASCADE`,
  );
  // Item ids from 1 again, so a documented example id (`/news/1`) names an item once news is ingested.
  await db.query(`TRUNCATE news_analyses, news_item_assets, news_items, news_feeds RESTART IDENTITY CASCADE`);
}
