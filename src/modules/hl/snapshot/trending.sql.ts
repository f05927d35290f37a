/**
 * Trending per period and market (docs/decisions.md). For each listed coin: price = the snapshot's mark
 * (hl_snapshot_coins: the mid when known, else the mark, as the holders are valued at),
 * priceChange = % change against the mid sampled `period` ago; until the samples reach that far back (a fresh
 * install), 24 h uses the upstream's prevDayPx and the others the oldest sample inside the period, so the change
 * covers the time sampled so far rather than reading 0 (TRENDING_PRICE_CHANGE in hl-openapi.ts says so), buy/sell
 * addresses = distinct takers' counterparties by side in the period (buyer of a trade, seller of a trade),
 * smartBuy/smartSell = those among smart addresses (top 500 all-time PnL on the leaderboard, or tagged
 * `smart`), buy/sellOrderAmountChange = buy/sell notional in the period minus the period before. Ranked by
 * distinct traders, then |priceChange|, then coin. Periods are counted back from $4, when the trades and mids
 * were read (not from the build, so a snapshot republished from the same reads ranks the same), $2 being its
 * minute; $1 = snapshot id, $3 = leaderboard snapshot id.
 */
export const TRENDING_SQL = `
  WITH periods(period, minutes) AS (VALUES ('15m', 15), ('1h', 60), ('4h', 240), ('24h', 1440)),
  smart AS (
    SELECT address FROM hl_leaderboard WHERE snapshot_id = $3 AND rank_pnl_all_time <= 500
    UNION SELECT address FROM hl_addresses WHERE 'smart' = ANY(tags)
  ),
  coins AS (
    SELECT m.market, m.coin, m.upstream_coin, sc.mark_px AS px, m.prev_day_px,
           CASE m.market WHEN 'spot' THEN 'spot:' || m.coin ELSE m.coin END AS sample_coin
      FROM hl_markets m JOIN hl_snapshot_coins sc ON sc.snapshot_id = $1 AND sc.market = m.market AND sc.coin = m.coin
     WHERE m.market IN ('perp', 'spot') AND sc.mark_px > 0
  ),
  stats AS (
    SELECT p.period, p.minutes, c.market, c.coin, c.px,
           COALESCE(o.px, CASE WHEN p.minutes = 1440 THEN c.prev_day_px END, f.px, c.px) AS old_px, t.*
      FROM periods p CROSS JOIN coins c
      LEFT JOIN LATERAL (
        SELECT s.px FROM hl_mid_samples s WHERE s.coin = c.sample_coin AND s.minute <= $2 - p.minutes ORDER BY s.minute DESC LIMIT 1
      ) o ON true
      LEFT JOIN LATERAL (
        SELECT s.px FROM hl_mid_samples s WHERE s.coin = c.sample_coin AND s.minute > $2 - p.minutes AND s.minute <= $2
         ORDER BY s.minute LIMIT 1
      ) f ON true
      LEFT JOIN LATERAL (
        SELECT count(DISTINCT tr.buyer) FILTER (WHERE tr.time >= $4::timestamptz - p.minutes * interval '1 minute') AS buyers,
               count(DISTINCT tr.seller) FILTER (WHERE tr.time >= $4::timestamptz - p.minutes * interval '1 minute') AS sellers,
               count(DISTINCT tr.buyer) FILTER (WHERE tr.time >= $4::timestamptz - p.minutes * interval '1 minute'
                                                 AND tr.buyer IN (SELECT address FROM smart)) AS smart_buyers,
               count(DISTINCT tr.seller) FILTER (WHERE tr.time >= $4::timestamptz - p.minutes * interval '1 minute'
                                                  AND tr.seller IN (SELECT address FROM smart)) AS smart_sellers,
               COALESCE(sum(tr.px * tr.sz) FILTER (WHERE tr.side = 'B' AND tr.time >= $4::timestamptz - p.minutes * interval '1 minute'), 0) AS buy_now,
               COALESCE(sum(tr.px * tr.sz) FILTER (WHERE tr.side = 'B' AND tr.time < $4::timestamptz - p.minutes * interval '1 minute'), 0) AS buy_before,
               COALESCE(sum(tr.px * tr.sz) FILTER (WHERE tr.side = 'A' AND tr.time >= $4::timestamptz - p.minutes * interval '1 minute'), 0) AS sell_now,
               COALESCE(sum(tr.px * tr.sz) FILTER (WHERE tr.side = 'A' AND tr.time < $4::timestamptz - p.minutes * interval '1 minute'), 0) AS sell_before
          FROM hl_trades tr
         WHERE tr.coin = c.upstream_coin AND tr.time >= $4::timestamptz - 2 * p.minutes * interval '1 minute'
      ) t ON true
  )
  SELECT $1::bigint, period, market, coin, px,
         CASE WHEN old_px > 0 THEN round((px - old_px) / old_px * 100, 4) ELSE 0 END AS change,
         buyers::int, sellers::int, smart_buyers::int, smart_sellers::int,
         round(buy_now - buy_before, 6), round(sell_now - sell_before, 6),
         row_number() OVER (PARTITION BY period, market
                            ORDER BY buyers + sellers DESC, abs(CASE WHEN old_px > 0 THEN (px - old_px) / old_px ELSE 0 END) DESC, coin)
    FROM stats`;
