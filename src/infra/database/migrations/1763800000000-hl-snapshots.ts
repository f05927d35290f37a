import { MigrationInterface, QueryRunner } from 'typeorm';

// One rank column per leaderboard sort value (contract 4.1), frozen here as migrations must be.
const LEADERBOARD_RANKS = [
  'rank_pnl_day',
  'rank_pnl_week',
  'rank_pnl_month',
  'rank_pnl_all_time',
  'rank_roi_day',
  'rank_roi_week',
  'rank_roi_month',
  'rank_roi_all_time',
  'rank_vlm_day',
  'rank_vlm_week',
  'rank_vlm_month',
  'rank_vlm_all_time',
  'rank_account_value',
];

/**
 * Exchange-chain analytics storage. Pollers keep the latest known state per address (hl_positions,
 * hl_spot_balances) and market (hl_markets, hl_mids); snapshot jobs materialise ranked tables as one
 * LIST partition per snapshot id, attached and made current in one transaction, dropped whole on pruning.
 */
export class HlSnapshots1763800000000 implements MigrationInterface {
  name = 'HlSnapshots1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE hl_addresses (
        address varchar(42) PRIMARY KEY,
        sources text[] NOT NULL DEFAULT '{}',
        tags text[] NOT NULL DEFAULT '{}',
        account_value numeric NOT NULL DEFAULT 0,
        is_vault boolean NOT NULL DEFAULT false,
        first_seen_at timestamptz NOT NULL DEFAULT now(),
        last_active_at timestamptz,
        polled_at timestamptz,
        next_poll_at timestamptz NOT NULL DEFAULT '-infinity',
        poll_error text,
        wants_fills boolean NOT NULL DEFAULT false,
        fills_polled_until bigint
      )`);
    await q.query(`CREATE INDEX hl_addresses_due_idx ON hl_addresses (next_poll_at, account_value DESC) WHERE NOT is_vault`);
    await q.query(`CREATE INDEX hl_addresses_fills_idx ON hl_addresses (fills_polled_until NULLS FIRST) WHERE wants_fills`);

    await q.query(`
      CREATE TABLE hl_markets (
        market varchar(8) NOT NULL,
        coin varchar(64) NOT NULL,
        dex varchar(32) NOT NULL DEFAULT '',
        upstream_coin varchar(64) NOT NULL,
        mark_px numeric,
        mid_px numeric,
        prev_day_px numeric,
        open_interest numeric,
        circulating_supply numeric,
        day_ntl_vlm numeric,
        sz_decimals integer,
        max_leverage integer,
        outcome_id integer,
        outcome_side integer,
        outcome_name text,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (market, coin)
      )`);
    await q.query(`CREATE TABLE hl_mids (coin varchar(64) PRIMARY KEY, mid numeric NOT NULL, updated_at timestamptz NOT NULL)`);
    await q.query(`
      CREATE TABLE hl_mid_samples (
        coin varchar(64) NOT NULL,
        minute bigint NOT NULL,
        px numeric NOT NULL,
        PRIMARY KEY (coin, minute)
      )`);
    await q.query(`CREATE INDEX hl_mid_samples_minute_idx ON hl_mid_samples (minute)`);

    await q.query(`
      CREATE TABLE hl_positions (
        address varchar(42) NOT NULL,
        coin varchar(64) NOT NULL,
        dex varchar(32) NOT NULL DEFAULT '',
        szi numeric NOT NULL,
        entry_px numeric NOT NULL,
        leverage_type varchar(8) NOT NULL,
        leverage numeric NOT NULL,
        position_value numeric NOT NULL,
        unrealized_pnl numeric NOT NULL,
        margin_used numeric NOT NULL,
        liquidation_px numeric,
        cum_funding numeric,
        read_at timestamptz NOT NULL,
        PRIMARY KEY (address, coin)
      )`);
    await q.query(`CREATE INDEX hl_positions_coin_idx ON hl_positions (coin)`);
    await q.query(`
      CREATE TABLE hl_spot_balances (
        address varchar(42) NOT NULL,
        coin varchar(64) NOT NULL,
        token integer NOT NULL,
        total numeric NOT NULL,
        hold numeric NOT NULL,
        entry_ntl numeric,
        read_at timestamptz NOT NULL,
        PRIMARY KEY (address, coin)
      )`);
    await q.query(`CREATE INDEX hl_spot_balances_coin_idx ON hl_spot_balances (coin)`);

    await q.query(`
      CREATE TABLE hl_trades (
        coin varchar(64) NOT NULL,
        tid bigint NOT NULL,
        time timestamptz NOT NULL,
        px numeric NOT NULL,
        sz numeric NOT NULL,
        side char(1) NOT NULL,
        buyer varchar(42) NOT NULL,
        seller varchar(42) NOT NULL,
        PRIMARY KEY (coin, tid)
      )`);
    await q.query(`CREATE INDEX hl_trades_time_idx ON hl_trades (time)`);
    await q.query(`
      CREATE TABLE hl_fills (
        address varchar(42) NOT NULL,
        fill_key varchar(160) NOT NULL,
        coin varchar(64) NOT NULL,
        time timestamptz NOT NULL,
        px numeric NOT NULL,
        sz numeric NOT NULL,
        side char(1) NOT NULL,
        dir varchar(32) NOT NULL,
        closed_pnl numeric NOT NULL,
        fee numeric NOT NULL,
        PRIMARY KEY (address, fill_key)
      )`);
    await q.query(`CREATE INDEX hl_fills_coin_idx ON hl_fills (coin, address)`);

    await q.query(`
      CREATE TABLE hl_snapshots (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind varchar(16) NOT NULL,
        status varchar(12) NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz,
        snapshot_time timestamptz NOT NULL,
        rows integer NOT NULL DEFAULT 0,
        coverage jsonb
      )`);
    await q.query(`CREATE INDEX hl_snapshots_kind_idx ON hl_snapshots (kind, id DESC)`);
    await q.query(`CREATE TABLE hl_current_snapshots (kind varchar(16) PRIMARY KEY, snapshot_id bigint NOT NULL)`);
    await q.query(`
      CREATE TABLE hl_snapshot_coins (
        snapshot_id bigint NOT NULL,
        market varchar(8) NOT NULL,
        coin varchar(64) NOT NULL,
        holders integer NOT NULL,
        mark_px numeric,
        reference_total numeric,
        seen_total numeric NOT NULL,
        coverage numeric,
        PRIMARY KEY (snapshot_id, market, coin)
      )`);

    await q.query(`
      CREATE TABLE hl_perp_holders (
        snapshot_id bigint NOT NULL,
        coin varchar(64) NOT NULL,
        address varchar(42) NOT NULL,
        side varchar(5) NOT NULL,
        size numeric NOT NULL,
        value numeric NOT NULL,
        entry_price numeric NOT NULL,
        leverage numeric NOT NULL,
        upnl numeric NOT NULL,
        roe numeric NOT NULL,
        margin_used numeric NOT NULL,
        liquidation_price numeric,
        mark_price numeric NOT NULL,
        cum_funding numeric,
        supply_pct numeric NOT NULL,
        rank_value integer NOT NULL,
        rank_pnl integer NOT NULL
      ) PARTITION BY LIST (snapshot_id)`);
    await q.query(`CREATE INDEX hl_perp_holders_value_idx ON hl_perp_holders (coin, rank_value)`);
    await q.query(`CREATE INDEX hl_perp_holders_pnl_idx ON hl_perp_holders (coin, rank_pnl)`);
    await q.query(`CREATE INDEX hl_perp_holders_address_idx ON hl_perp_holders (address, coin)`);

    await q.query(`
      CREATE TABLE hl_spot_holders (
        snapshot_id bigint NOT NULL,
        coin varchar(64) NOT NULL,
        address varchar(42) NOT NULL,
        balance numeric NOT NULL,
        value numeric NOT NULL,
        entry_price numeric,
        entry_ntl numeric,
        upnl numeric,
        roe numeric,
        supply_pct numeric NOT NULL,
        rank_value integer NOT NULL
      ) PARTITION BY LIST (snapshot_id)`);
    await q.query(`CREATE INDEX hl_spot_holders_value_idx ON hl_spot_holders (coin, rank_value)`);
    await q.query(`CREATE INDEX hl_spot_holders_address_idx ON hl_spot_holders (address, coin)`);

    await q.query(`
      CREATE TABLE hl_smart_traders (
        snapshot_id bigint NOT NULL,
        market varchar(8) NOT NULL,
        coin varchar(64) NOT NULL,
        address varchar(42) NOT NULL,
        total_buy_usd numeric NOT NULL,
        total_sell_usd numeric NOT NULL,
        total_fee_usd numeric NOT NULL,
        realized_pnl numeric NOT NULL,
        unrealized_pnl numeric NOT NULL,
        pnl numeric NOT NULL,
        pnl_pct numeric NOT NULL,
        net_position_sz numeric NOT NULL,
        current_position_notional numeric NOT NULL,
        trade_count integer NOT NULL,
        last_trade_at timestamptz NOT NULL
      ) PARTITION BY LIST (snapshot_id)`);
    await q.query(`CREATE INDEX hl_smart_traders_coin_idx ON hl_smart_traders (market, coin)`);

    await q.query(`
      CREATE TABLE hl_trending (
        snapshot_id bigint NOT NULL,
        period varchar(4) NOT NULL,
        market varchar(8) NOT NULL,
        coin varchar(64) NOT NULL,
        price numeric NOT NULL,
        price_change numeric NOT NULL,
        buy_addresses integer NOT NULL,
        sell_addresses integer NOT NULL,
        smart_buy integer NOT NULL,
        smart_sell integer NOT NULL,
        buy_amount_change numeric NOT NULL,
        sell_amount_change numeric NOT NULL,
        rank integer NOT NULL
      ) PARTITION BY LIST (snapshot_id)`);
    await q.query(`CREATE INDEX hl_trending_rank_idx ON hl_trending (period, market, rank)`);

    await q.query(`
      CREATE TABLE hl_leaderboard (
        snapshot_id bigint NOT NULL,
        address varchar(42) NOT NULL,
        account_value numeric NOT NULL,
        pnl_day numeric NOT NULL, roi_day numeric NOT NULL, vlm_day numeric NOT NULL,
        pnl_week numeric NOT NULL, roi_week numeric NOT NULL, vlm_week numeric NOT NULL,
        pnl_month numeric NOT NULL, roi_month numeric NOT NULL, vlm_month numeric NOT NULL,
        pnl_all_time numeric NOT NULL, roi_all_time numeric NOT NULL, vlm_all_time numeric NOT NULL,
        ${LEADERBOARD_RANKS.map((rank) => `${rank} integer NOT NULL`).join(',\n        ')}
      ) PARTITION BY LIST (snapshot_id)`);
    for (const rank of LEADERBOARD_RANKS) {
      await q.query(`CREATE INDEX hl_leaderboard_${rank}_idx ON hl_leaderboard (${rank})`);
    }
    await q.query(`CREATE INDEX hl_leaderboard_address_idx ON hl_leaderboard (address)`);

    await q.query(`
      CREATE TABLE job_runs (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name varchar(64) NOT NULL,
        holder varchar(64) NOT NULL,
        status varchar(12) NOT NULL,
        started_at timestamptz NOT NULL,
        finished_at timestamptz,
        rows integer,
        coverage jsonb,
        error text
      )`);
    await q.query(`CREATE INDEX job_runs_name_idx ON job_runs (name, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'job_runs',
      'hl_leaderboard',
      'hl_trending',
      'hl_smart_traders',
      'hl_spot_holders',
      'hl_perp_holders',
      'hl_snapshot_coins',
      'hl_current_snapshots',
      'hl_snapshots',
      'hl_fills',
      'hl_trades',
      'hl_spot_balances',
      'hl_positions',
      'hl_mid_samples',
      'hl_mids',
      'hl_markets',
      'hl_addresses',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table} CASCADE`);
    }
  }
}
