import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DEFAULT_NOTIFICATION_SETTINGS, FUNDING_HOURS_PER_YEAR, PRICE_MOVE_WINDOWS_MINUTES } from '../notification-settings';
import { NotificationType } from '../notification-types';
import { NewNotification } from '../notifications.repository';

export interface PriceMoveRow {
  accountId: string;
  coin: string;
  mid: string;
  pastPx: string;
  /** The account's window the move was measured over. */
  windowMinutes: number;
}

export interface LiquidationRiskRow {
  accountId: string;
  coin: string;
  szi: string;
  markPx: string;
  liquidationPx: string;
}

export interface FundingRateRow {
  accountId: string;
  coin: string;
  /** Hourly rate, as Hyperliquid quotes it. */
  funding: string;
}

/** A condition that holds now, with the notification to send if it did not hold at the previous run. */
export interface HeldCondition {
  accountId: string;
  type: NotificationType;
  coin: string;
  message: string;
}

/**
 * A reference price older than the window by more than this is no reference: the mids stopped being
 * sampled for a while, and a move against it would not be a move "within the window".
 */
const REFERENCE_SLACK_MINUTES = 15;

/** An account's setting, or its default when the account saved none (the same rule as withDefaults). */
const setting = (key: string, cast: 'numeric' | 'boolean', fallback: string) => `COALESCE((s.settings->>'${key}')::${cast}, ${fallback})`;

/** The SQL of the generator: which alert conditions hold, and which of them are new since the last run. */
@Injectable()
export class NotificationConditionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Watchlist coins of accounts with price alerts on whose mid moved at least the account's threshold
   * against the mid sampled the account's window ago (a perp's sample first, as /hl/prices/mids serves a
   * perp's mid for a shared key, else the spot token's). A window not offered reads as the default, as in withDefaults.
   */
  async priceMoves(nowMinute: number): Promise<PriceMoveRow[]> {
    const { priceMoveEnabled, priceMovePercent, priceMoveWindowMinutes } = DEFAULT_NOTIFICATION_SETTINGS;
    return this.db.query(
      `WITH watched AS (
         SELECT DISTINCT g.account_id, e.coin FROM watchlist_groups g JOIN watchlist_entries e ON e.group_id = g.id
       )
       SELECT w.account_id AS "accountId", w.coin, m.mid::text AS mid, o.px::text AS "pastPx", win.minutes AS "windowMinutes"
         FROM watched w
         LEFT JOIN notification_settings s ON s.account_id = w.account_id
         CROSS JOIN LATERAL (
           SELECT CASE WHEN v.minutes = ANY($5::numeric[]) THEN v.minutes::int ELSE $4::int END AS minutes
             FROM (SELECT ${setting('priceMoveWindowMinutes', 'numeric', '$4::numeric')} AS minutes) v
         ) win
         JOIN hl_mids m ON m.coin = w.coin
         JOIN LATERAL (
           SELECT sm.px FROM hl_mid_samples sm
            WHERE sm.coin IN (w.coin, 'spot:' || w.coin) AND sm.minute <= $1::bigint - win.minutes AND sm.minute > $1::bigint - win.minutes - $2::int
            ORDER BY sm.coin = w.coin DESC, sm.minute DESC LIMIT 1
         ) o ON o.px > 0
        WHERE ${setting('priceMoveEnabled', 'boolean', String(priceMoveEnabled))}
          AND abs(m.mid - o.px) / o.px * 100 >= ${setting('priceMovePercent', 'numeric', '$3::numeric')}`,
      [nowMinute, REFERENCE_SLACK_MINUTES, priceMovePercent, priceMoveWindowMinutes, PRICE_MOVE_WINDOWS_MINUTES],
    );
  }

  /** Positions of accounts' own wallets (liquidation alerts on) whose perp mark is within the account's distance of the liquidation price. */
  async liquidationRisks(): Promise<LiquidationRiskRow[]> {
    const { liquidationRiskEnabled, liquidationDistancePercent } = DEFAULT_NOTIFICATION_SETTINGS;
    return this.db.query(
      `SELECT a.id AS "accountId", p.coin, p.szi::text AS szi, m.mark_px::text AS "markPx", p.liquidation_px::text AS "liquidationPx"
         FROM accounts a
         LEFT JOIN notification_settings s ON s.account_id = a.id
         JOIN hl_positions p ON p.address = a.wallet_address
         JOIN hl_markets m ON m.market = 'perp' AND m.coin = p.coin
        WHERE p.szi <> 0 AND p.liquidation_px > 0 AND m.mark_px > 0
          AND ${setting('liquidationRiskEnabled', 'boolean', String(liquidationRiskEnabled))}
          AND abs(m.mark_px - p.liquidation_px) / m.mark_px * 100 <= ${setting('liquidationDistancePercent', 'numeric', '$1::numeric')}`,
      [liquidationDistancePercent],
    );
  }

  /** Watchlist perps of accounts with funding alerts on whose hourly funding rate, annualised, is at or beyond the account's threshold either way. */
  async fundingRates(): Promise<FundingRateRow[]> {
    const { fundingRateEnabled, fundingRateAprPercent } = DEFAULT_NOTIFICATION_SETTINGS;
    return this.db.query(
      `WITH watched AS (
         SELECT DISTINCT g.account_id, e.coin FROM watchlist_groups g JOIN watchlist_entries e ON e.group_id = g.id
       )
       SELECT w.account_id AS "accountId", w.coin, m.funding::text AS funding
         FROM watched w
         LEFT JOIN notification_settings s ON s.account_id = w.account_id
         JOIN hl_markets m ON m.market = 'perp' AND m.coin = w.coin
        WHERE m.funding IS NOT NULL
          AND ${setting('fundingRateEnabled', 'boolean', String(fundingRateEnabled))}
          AND abs(m.funding) * ${FUNDING_HOURS_PER_YEAR} * 100 >= ${setting('fundingRateAprPercent', 'numeric', '$1::numeric')}`,
      [fundingRateAprPercent],
    );
  }

  /** Wallets of accounts with liquidation alerts on that the position poll does not read yet. */
  async walletsOutsideUniverse(): Promise<string[]> {
    const rows: Array<{ address: string }> = await this.db.query(
      `SELECT a.wallet_address AS address FROM accounts a
         LEFT JOIN notification_settings s ON s.account_id = a.id
        WHERE ${setting('liquidationRiskEnabled', 'boolean', String(DEFAULT_NOTIFICATION_SETTINGS.liquidationRiskEnabled))}
          AND NOT EXISTS (SELECT 1 FROM hl_addresses h WHERE h.address = a.wallet_address)`,
    );
    return rows.map((row) => row.address);
  }

  /**
   * Records the conditions that hold, forgets those that cleared (so they alert again when they recur) and
   * stores a notification for each one that did not hold before, all in one transaction: a run that fails
   * half-way neither loses an alert nor sends one twice. Answers how many notifications it stored.
   */
  async sync(held: readonly HeldCondition[]): Promise<{ notified: number; cleared: number }> {
    const payload = JSON.stringify(held.map((c) => ({ account_id: c.accountId, type: c.type, coin: c.coin, message: c.message })));
    return this.db.transaction(async (tx) => {
      // Counted in a SELECT: TypeORM answers a bare DELETE ... RETURNING with [rows, count].
      const [{ cleared }]: Array<{ cleared: number }> = await tx.query(
        `WITH gone AS (
           DELETE FROM notification_conditions c
            WHERE NOT EXISTS (
              SELECT 1 FROM jsonb_to_recordset($1::jsonb) AS h(account_id uuid, type text, coin text)
               WHERE h.account_id = c.account_id AND h.type = c.type AND h.coin = c.coin)
           RETURNING 1
         )
         SELECT count(*)::int AS cleared FROM gone`,
        [payload],
      );
      const began: Array<Omit<NewNotification, 'createdAt'>> = await tx.query(
        `WITH held AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS h(account_id uuid, type text, coin text, message text)
         ), began AS (
           INSERT INTO notification_conditions (account_id, type, coin)
           SELECT account_id, type, coin FROM held
           ON CONFLICT (account_id, type, coin) DO NOTHING
           RETURNING account_id, type, coin
         )
         INSERT INTO notifications (account_id, type, coin, message)
         SELECT b.account_id, b.type, b.coin, h.message
           FROM began b JOIN held h ON h.account_id = b.account_id AND h.type = b.type AND h.coin = b.coin
         RETURNING id`,
        [payload],
      );
      return { notified: began.length, cleared };
    });
  }
}
