/** Correlated on the fills' alias `f`; a handful of vaults, so an anti-join per statement. */
const VAULT = `SELECT 1 FROM hl_addresses v WHERE v.address = f.address AND v.is_vault`;

/**
 * Smart-trader aggregates (docs/decisions.md): over every fill we hold for a trader on the coin,
 * totalBuyUsd/totalSellUsd = Σ px×sz by side, totalFeeUsd = Σ fee, realizedPnl = Σ closedPnl,
 * unrealizedPnl from the current position at today's mark, pnl = realized + unrealized − fees,
 * pnlPct = pnl ÷ totalBuyUsd × 100 (0 without buys). Marks are the snapshot's own (hl_snapshot_coins), as
 * the holders'. Vaults are left out as they are among holders: fills stored before an address was flagged
 * are still held. $1 = snapshot id.
 */
export const HIP3_SMART_TRADERS_SQL = `
  WITH agg AS (
    SELECT address, coin,
           sum(px * sz) FILTER (WHERE side = 'B') AS buy, sum(px * sz) FILTER (WHERE side = 'A') AS sell,
           sum(fee) AS fee, sum(closed_pnl) AS realized, count(*)::int AS trades, max(time) AS last_at
      FROM hl_fills f WHERE coin LIKE '%:%' AND NOT EXISTS (${VAULT}) GROUP BY address, coin
  ), joined AS (
    SELECT a.*, COALESCE(a.buy, 0) AS b, COALESCE(a.sell, 0) AS s, COALESCE(p.szi, 0) AS szi,
           COALESCE(p.szi * (m.mark_px - p.entry_px), 0) AS upnl, COALESCE(m.mark_px, 0) AS px
      FROM agg a
      LEFT JOIN hl_positions p ON p.address = a.address AND p.coin = a.coin
      LEFT JOIN hl_snapshot_coins m ON m.snapshot_id = $1 AND m.market = 'perp' AND m.coin = a.coin
  )
  SELECT $1::bigint, 'hip3', coin, address, round(b, 6), round(s, 6), round(fee, 6), round(realized, 6), round(upnl, 6),
         round(realized + upnl - fee, 6),
         CASE WHEN b > 0 THEN round((realized + upnl - fee) / b * 100, 4) ELSE 0 END,
         szi, round(abs(szi) * px, 6), trades, last_at
    FROM joined`;

/**
 * HIP-4: both sides of an outcome merged per trader. Fills arrive as `#<10×outcome+side>`; holdings as
 * `+<10×outcome+side>` spot tokens valued at that side's mid against their entry notional.
 */
export const HIP4_SMART_TRADERS_SQL = `
  WITH fills AS (
    SELECT address, substr(coin, 2)::int / 10 AS outcome, px, sz, side, fee, closed_pnl, time
      FROM hl_fills f WHERE coin ~ '^#[0-9]+$' AND NOT EXISTS (${VAULT})
  ), agg AS (
    SELECT address, outcome,
           COALESCE(sum(px * sz) FILTER (WHERE side = 'B'), 0) AS b, COALESCE(sum(px * sz) FILTER (WHERE side = 'A'), 0) AS s,
           sum(fee) AS fee, sum(closed_pnl) AS realized, count(*)::int AS trades, max(time) AS last_at
      FROM fills GROUP BY address, outcome
  ), held AS (
    SELECT bal.address, substr(bal.coin, 2)::int / 10 AS outcome,
           sum(bal.total * COALESCE(m.mark_px, 0) - COALESCE(bal.entry_ntl, 0)) AS upnl
      FROM hl_spot_balances bal
      JOIN hl_snapshot_coins m ON m.snapshot_id = $1 AND m.market = 'hip4' AND m.coin = '#' || substr(bal.coin, 2)
     WHERE bal.coin ~ '^[+][0-9]+$'
     GROUP BY 1, 2
  )
  SELECT $1::bigint, 'hip4', a.outcome::text, a.address, round(a.b, 6), round(a.s, 6), round(a.fee, 6), round(a.realized, 6),
         round(COALESCE(h.upnl, 0), 6), round(a.realized + COALESCE(h.upnl, 0) - a.fee, 6),
         CASE WHEN a.b > 0 THEN round((a.realized + COALESCE(h.upnl, 0) - a.fee) / a.b * 100, 4) ELSE 0 END,
         0, 0, a.trades, a.last_at
    FROM agg a LEFT JOIN held h ON h.address = a.address AND h.outcome = a.outcome`;
