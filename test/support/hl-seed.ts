import { DataSource } from 'typeorm';
import { HlCatalogService } from '../../src/modules/hl/hl-catalog.service';
import { SnapshotStore } from '../../src/modules/hl/snapshot/snapshot-store';
import { partitionName } from '../../src/modules/hl/snapshot/snapshot-tables';
import { TestApp } from './create-test-app';

/**
 * A known exchange-chain market for read-side tests, written the way the snapshot jobs write it:
 * reference tables (hl_markets, hl_mids, hl_addresses) directly, snapshot rows through SnapshotStore
 * (begin → bulk insert into the standalone partitions → hl_snapshot_coins → publish).
 */
export const HL_SEED = {
  snapshotTime: new Date('2026-11-21T12:00:00.000Z'),
  /** Perp with many tied values and PnLs. */
  btc: { coin: 'BTC', holders: 1234, mark: '100000' },
  /** Perp deep enough that pages past 10,000 rows exist (only when `deep` is asked for). */
  eth: { coin: 'ETH', holders: 10_050, mark: '4000' },
  /** Listed perp without a single holder in the snapshot. */
  sol: { coin: 'SOL' },
  /** HIP-3 coin with hand-placed liquidation prices (see TSLA_POSITIONS). */
  tsla: { coin: 'xyz:TSLA', mark: '400', traders: 75 },
  nvda: { coin: 'xyz:NVDA', mark: '180', traders: 5 },
  hype: { coin: 'HYPE', holders: 57, mark: '25' },
  purr: { coin: 'PURR' },
  // snapshotYesMark: the YES mark the market snapshot stored (the live mid has moved since).
  outcome: { id: 0, name: 'BTC above 100k on Dec 31', yesMid: '0.62', noMid: '0.38', snapshotYesMark: '0.61', traders: 30 },
  otherOutcome: { id: 1, name: 'ETH flips BTC in 2026', traders: 3 },
  leaderboardRows: 250,
  trending: { spot: 12, perp: 60 },
} as const;

/** The seed's wallets: the n-th is 0x000…<n in hex>. */
export function seedAddress(n: number): string {
  return '0x' + n.toString(16).padStart(40, '0');
}

/**
 * xyz:TSLA positions, mark 400 → heatmap range [200, 600], bins 10 wide. Bin 0: 63,000 over 3 positions,
 * segment 2 leads; bin 10: segments 1 and 2 tie at 10,000 (the larger wins); bin 25: one segment-3
 * position; bin 39 holds a price equal to the upper edge. The last two fall outside or cannot be liquidated.
 */
export const TSLA_POSITIONS = [
  { n: 1, side: 'long', value: '5000', liq: '205' },
  { n: 2, side: 'long', value: '50000', liq: '209.99' },
  { n: 3, side: 'short', value: '8000', liq: '209' },
  { n: 4, side: 'long', value: '9000', liq: '305' },
  { n: 5, side: 'long', value: '1000', liq: '301' },
  { n: 6, side: 'short', value: '10000', liq: '309.5' },
  { n: 7, side: 'short', value: '150000', liq: '450' },
  { n: 8, side: 'long', value: '2000000', liq: '600' },
  { n: 9, side: 'long', value: '999999', liq: '150' },
  { n: 10, side: 'short', value: '20000', liq: null },
] as const;

const MARKETS: Array<
  [market: string, coin: string, dex: string, mark: string | null, mid: string | null, outcomeId: number | null, side: number | null, name: string | null]
> = [
  ['perp', 'BTC', '', HL_SEED.btc.mark, '100001', null, null, null],
  ['perp', 'ETH', '', HL_SEED.eth.mark, '4000.5', null, null, null],
  ['perp', 'SOL', '', '150', '150.25', null, null, null],
  ['perp', 'xyz:TSLA', 'xyz', HL_SEED.tsla.mark, '400.1', null, null, null],
  ['perp', 'xyz:NVDA', 'xyz', HL_SEED.nvda.mark, '180', null, null, null],
  ['spot', 'HYPE', '', HL_SEED.hype.mark, '25.01', null, null, null],
  ['spot', 'PURR', '', '0.2', '0.2', null, null, null],
  ['spot', 'USDC', '', '1', '1', null, null, null],
  ['hip4', '#0', '', '0.6', HL_SEED.outcome.yesMid, 0, 0, HL_SEED.outcome.name],
  ['hip4', '#1', '', '0.4', HL_SEED.outcome.noMid, 0, 1, HL_SEED.outcome.name],
  ['hip4', '#10', '', '0.1', null, 1, 0, HL_SEED.otherOutcome.name],
  ['hip4', '#11', '', '0.9', null, 1, 1, HL_SEED.otherOutcome.name],
];

/** hl_mids as the mids poller would leave it ('25.010' on purpose: the API answers canonical decimals). */
export const SEED_MIDS: Record<string, string> = {
  BTC: '100001',
  ETH: '4000.5',
  SOL: '150.25',
  'xyz:TSLA': '400.1',
  'xyz:NVDA': '180',
  HYPE: '25.010',
  PURR: '0.2',
  USDC: '1',
  '#0': '0.62',
  '#1': '0.38',
};

export const SEED_TAGS: Record<string, string[]> = {
  [seedAddress(1)]: ['whale', 'smart'],
  [seedAddress(3)]: ['vault'],
};

/** The reference tables the pollers fill: listed markets, mids and address tags. */
export async function seedHlReference(db: DataSource): Promise<void> {
  for (const [market, coin, dex, mark, mid, outcomeId, side, name] of MARKETS) {
    await db.query(
      `INSERT INTO hl_markets (market, coin, dex, upstream_coin, mark_px, mid_px, outcome_id, outcome_side, outcome_name)
       VALUES ($1, $2, $3, $2, $4, $5, $6, $7, $8)`,
      [market, coin, dex, mark, mid, outcomeId, side, name],
    );
  }
  for (const [coin, mid] of Object.entries(SEED_MIDS)) {
    await db.query(`INSERT INTO hl_mids (coin, mid, updated_at) VALUES ($1, $2, now())`, [coin, mid]);
  }
  for (const [address, tags] of Object.entries(SEED_TAGS)) {
    await db.query(`INSERT INTO hl_addresses (address, tags) VALUES ($1, $2)`, [address, tags]);
  }
}

export interface MarketSnapshotOptions {
  snapshotTime?: Date;
  /** Also load ETH with 10,050 holders. */
  deep?: boolean;
  /** Reshuffles the generated values (another snapshot of the "same" market). */
  shift?: number;
  /** BTC holder count (defaults to HL_SEED.btc.holders). */
  btcHolders?: number;
}

/** Publishes a market snapshot; returns its id. The app's catalog is refreshed so the snapshot serves at once. */
export async function publishHlMarketSnapshot(t: TestApp, options: MarketSnapshotOptions = {}): Promise<number> {
  const store = t.app.get(SnapshotStore);
  const { snapshotTime = HL_SEED.snapshotTime, deep = false, shift = 0, btcHolders = HL_SEED.btc.holders } = options;
  const id = await store.begin('market', snapshotTime);

  await insertGeneratedPerpHolders(t.db, id, { coin: 'BTC', count: btcHolders, mark: HL_SEED.btc.mark, shift });
  if (deep) await insertGeneratedPerpHolders(t.db, id, { coin: 'ETH', count: HL_SEED.eth.holders, mark: HL_SEED.eth.mark, shift });
  await insertTslaHolders(t.db, id);
  await insertSpotHolders(t.db, id, { coin: 'HYPE', count: HL_SEED.hype.holders, mark: HL_SEED.hype.mark, shift });
  await insertSmartTraders(t.db, id);
  await insertTrending(t.db, id);

  const coins: Array<[string, string, number, string | null]> = [
    ['perp', 'BTC', btcHolders, HL_SEED.btc.mark],
    ['perp', 'ETH', deep ? HL_SEED.eth.holders : 0, HL_SEED.eth.mark],
    ['perp', 'xyz:TSLA', TSLA_POSITIONS.length, HL_SEED.tsla.mark],
    ['perp', 'xyz:NVDA', 0, HL_SEED.nvda.mark],
    ['spot', 'HYPE', HL_SEED.hype.holders, HL_SEED.hype.mark],
    ['spot', 'PURR', 0, '0.2'],
    // As the builder stores HIP-4 sides: their marks, no holders. Outcome 1 has none (a snapshot built before).
    ['hip4', '#0', 0, HL_SEED.outcome.snapshotYesMark],
  ];
  for (const [market, coin, holders, mark] of coins) {
    await t.db.query(`INSERT INTO hl_snapshot_coins (snapshot_id, market, coin, holders, mark_px, seen_total) VALUES ($1, $2, $3, $4, $5, 0)`, [
      id,
      market,
      coin,
      holders,
      mark,
    ]);
  }
  // As the snapshot builder does: the holders rows carry their address tags.
  for (const table of ['hl_perp_holders', 'hl_spot_holders'] as const) {
    await t.db.query(`UPDATE ${partitionName(table, id)} h SET tags = a.tags FROM hl_addresses a WHERE a.address = h.address`);
  }
  await store.publish({ kind: 'market', snapshotId: id, rows: coins.reduce((sum, [, , n]) => sum + n, 0) });
  t.app.get(HlCatalogService).invalidate();
  return id;
}

/** Publishes a leaderboard snapshot of `rows` accounts (values with ties, negative PnLs), ranked on all 13 sorts. */
export async function publishHlLeaderboardSnapshot(t: TestApp, { rows = HL_SEED.leaderboardRows, snapshotTime = HL_SEED.snapshotTime } = {}): Promise<number> {
  const store = t.app.get(SnapshotStore);
  const id = await store.begin('leaderboard', snapshotTime);
  const windows = ['day', 'week', 'month', 'all_time'];
  const values = windows.flatMap((w, k) => [
    `round(((i * ${7 + k}) % 50 - 25) * 100.25 * ${k + 1}, 2) AS pnl_${w}`,
    `round(((i * ${11 + k}) % 40 - 20) / 1000.0, 4) AS roi_${w}`,
    `((i * ${13 + k}) % 60) * 1000 * ${k + 1} AS vlm_${w}`,
  ]);
  const valueColumns = ['account_value', ...windows.flatMap((w) => [`pnl_${w}`, `roi_${w}`, `vlm_${w}`])];
  const ranks = [...windows.flatMap((w) => ['pnl', 'roi', 'vlm'].map((m) => `${m}_${w}`)), 'account_value'];
  await t.db.query(
    `INSERT INTO ${partitionName('hl_leaderboard', id)} (snapshot_id, address, ${valueColumns.join(', ')}, ${ranks.map((c) => `rank_${c}`).join(', ')})
     SELECT $1, address, ${valueColumns.join(', ')}, ${ranks.map((c) => `row_number() OVER (ORDER BY ${c} DESC, address DESC)`).join(', ')}
       FROM (SELECT i, '0x' || lpad(to_hex(i), 40, '0') AS address, ((i * 31) % 97) * 1000 + 0.5 AS account_value, ${values.join(', ')}
               FROM generate_series(1, $2) AS i) g`,
    [id, rows],
  );
  await store.publish({ kind: 'leaderboard', snapshotId: id, rows });
  t.app.get(HlCatalogService).invalidate();
  return id;
}

/** Generated perp holders: ~200 distinct values (so many ties), a few whales, PnLs with ties, some without a liquidation price. */
async function insertGeneratedPerpHolders(
  db: DataSource,
  id: number,
  { coin, count, mark, shift }: { coin: string; count: number; mark: string; shift: number },
) {
  await db.query(
    `INSERT INTO ${partitionName('hl_perp_holders', id)}
     SELECT $1, $2, address, side, round(value / $3::numeric, 8), value, round($3::numeric * 0.98, 2), 10, upnl, round(upnl / value * 10, 8),
            round(value / 10, 6), liq, $3::numeric, CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 100) - 50 END, round(value / 1e9 * 100, 8),
            row_number() OVER (ORDER BY value DESC, address DESC), row_number() OVER (ORDER BY upnl DESC, address DESC)
       FROM (SELECT i, '0x' || lpad(to_hex(i), 40, '0') AS address, CASE WHEN i % 3 = 0 THEN 'short' ELSE 'long' END AS side,
                    (CASE WHEN i <= 5 THEN 2000000 WHEN i <= 20 THEN 500000 ELSE (((i + $5) * 37) % 200 + 1) * 500 END)::numeric AS value,
                    (((((i + $5) * 53) % 401) - 200) * 10)::numeric AS upnl,
                    CASE WHEN i % 10 = 0 THEN NULL ELSE round($3::numeric * (0.3 + ((i * 17) % 140) / 100.0), 2) END AS liq
               FROM generate_series(1, $4) AS i) g`,
    [id, coin, mark, count, shift],
  );
}

async function insertTslaHolders(db: DataSource, id: number) {
  const { coin, mark } = HL_SEED.tsla;
  await db.query(
    `INSERT INTO ${partitionName('hl_perp_holders', id)}
     SELECT $1, $2, address, side, round(value / $3::numeric, 8), value, $3::numeric, 5, 0, 0, value / 5, liq, $3::numeric, NULL, 0.1,
            row_number() OVER (ORDER BY value DESC, address DESC), row_number() OVER (ORDER BY address DESC)
       FROM jsonb_to_recordset($4::jsonb) AS p(address text, side text, value numeric, liq numeric)`,
    [id, coin, mark, JSON.stringify(TSLA_POSITIONS.map((p) => ({ address: seedAddress(p.n), side: p.side, value: p.value, liq: p.liq })))],
  );
}

/** Spot holders; every 4th has no entry notional (so no entry price, PnL or ROE). */
async function insertSpotHolders(db: DataSource, id: number, { coin, count, mark, shift }: { coin: string; count: number; mark: string; shift: number }) {
  await db.query(
    `INSERT INTO ${partitionName('hl_spot_holders', id)}
     SELECT $1, $2, address, balance, value, CASE WHEN has_entry THEN round(value * 0.9 / balance, 8) END,
            CASE WHEN has_entry THEN round(value * 0.9, 6) END, CASE WHEN has_entry THEN round(value * 0.1, 6) END,
            CASE WHEN has_entry THEN 0.11111111 END, round(balance / 1e6 * 100, 8),
            row_number() OVER (ORDER BY value DESC, address DESC)
       FROM (SELECT i, '0x' || lpad(to_hex(i), 40, '0') AS address, i % 4 <> 0 AS has_entry,
                    ((((i + $5) * 13) % 20) + 1) * 10.5 AS balance, ((((i + $5) * 13) % 20) + 1) * 10.5 * $3::numeric AS value
               FROM generate_series(1, $4) AS i) g`,
    [id, coin, mark, count, shift],
  );
}

async function insertSmartTraders(db: DataSource, id: number) {
  const groups: Array<[string, string, number]> = [
    ['hip3', HL_SEED.tsla.coin, HL_SEED.tsla.traders],
    ['hip3', HL_SEED.nvda.coin, HL_SEED.nvda.traders],
    ['hip4', String(HL_SEED.outcome.id), HL_SEED.outcome.traders],
    ['hip4', String(HL_SEED.otherOutcome.id), HL_SEED.otherOutcome.traders],
  ];
  for (const [market, coin, count] of groups) {
    await db.query(
      `INSERT INTO ${partitionName('hl_smart_traders', id)}
       SELECT $1, $2, $3, '0x' || lpad(to_hex(i), 40, '0'), buy, sell, round(buy * 0.00035, 6), realized, unrealized,
              realized + unrealized - round(buy * 0.00035, 6), ((i * 7) % 20 - 10) * 1.5, (i % 5) - 2, ((i % 5) - 2) * 400.5,
              (i * 3) % 17 + 1, timestamptz '2026-11-21T12:00:00Z' - ((i * 37) % 100) * interval '1 minute'
         FROM (SELECT i, (i * 1000 + 0.25)::numeric AS buy, (i * 900)::numeric AS sell, ((i * 11) % 30 - 15) * 10.5 AS realized,
                      ((i * 13) % 20 - 10) * 3.25 AS unrealized
                 FROM generate_series(1, $4) AS i) g`,
      [id, market, coin, count],
    );
  }
}

/** Coins named `<MARKET>-<period>-<rank>` so a test can tell which list and period it got. */
async function insertTrending(db: DataSource, id: number) {
  await db.query(
    `INSERT INTO ${partitionName('hl_trending', id)}
     SELECT $1, p.period, m.market, upper(m.market) || '-' || p.period || '-' || lpad(r::text, 3, '0'), 10 + r * 0.5,
            round((r - 20) * 0.25 * p.k, 4), 100 - r, 90 - r, r % 7, r % 5, (r * 100.5) - 1000, 500 - r * 10, r
       FROM (VALUES ('15m', 1), ('1h', 2), ('4h', 3), ('24h', 4)) AS p(period, k)
      CROSS JOIN (VALUES ('spot', $2::int), ('perp', $3::int)) AS m(market, n)
      CROSS JOIN LATERAL generate_series(1, m.n) AS r`,
    [id, HL_SEED.trending.spot, HL_SEED.trending.perp],
  );
}
