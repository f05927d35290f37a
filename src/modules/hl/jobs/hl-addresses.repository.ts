import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { FillRow } from './hl-state.repository';

const ADDRESS_CHUNK = 10_000;

export type AddressSource = 'leaderboard' | 'trades' | 'liquidation' | 'operator' | 'cohort' | 'account';

/** The address universe: where addresses come from, which are due for a read, and how far their fills were read. */
@Injectable()
export class HlAddressesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Adds addresses or merges what is known of them. `accountValues` replaces an address's value only where
   * it holds one; `lastTradeAt` (ms) records when an address was last seen trading.
   */
  async upsertAddresses({
    addresses,
    source,
    accountValues,
    tags,
    wantsFills,
    lastTradeAt,
  }: {
    addresses: string[];
    source: AddressSource;
    accountValues?: Map<string, string>;
    tags?: string[];
    wantsFills?: Set<string>;
    lastTradeAt?: Map<string, number>;
  }): Promise<void> {
    if (addresses.length === 0) return;
    // Large documents (the leaderboard) go in chunks so one statement's payload stays a few MB.
    if (addresses.length > ADDRESS_CHUNK) {
      for (let i = 0; i < addresses.length; i += ADDRESS_CHUNK) {
        await this.upsertAddresses({ addresses: addresses.slice(i, i + ADDRESS_CHUNK), source, accountValues, tags, wantsFills, lastTradeAt });
      }
      return;
    }
    // EXCLUDED is the proposed row and the column is NOT NULL, so an address without a value is proposed at 0:
    // whether the known value is replaced is decided per statement, and the two kinds go in separate ones.
    const valued = addresses.filter((address) => accountValues?.has(address));
    const unvalued = addresses.filter((address) => !accountValues?.has(address));
    for (const [group, replacesValue] of [
      [valued, true],
      [unvalued, false],
    ] as const) {
      if (group.length === 0) continue;
      // In address order, the order saveAccountStates locks them in, so the two never deadlock.
      const rows = [...group].sort().map((address) => ({
        address,
        account_value: accountValues?.get(address) ?? 0,
        wants_fills: wantsFills?.has(address) ?? false,
        trade_ms: lastTradeAt?.get(address) ?? null,
      }));
      // A wallet seen trading after its last read is due at once: a trade is what makes a stored state stale
      // (an idle wallet still holds what was read, and every snapshot revalues it at the mark). The poll order
      // among due wallets stays by account value, so large active ones are read first. Comparing the trade's
      // own time, not "seen now", keeps a quiet coin's unchanged recent trades from re-queueing their traders.
      await this.db.query(
        `INSERT INTO hl_addresses (address, sources, tags, account_value, wants_fills, last_active_at)
         SELECT r.address, ARRAY[$2::text], $3::text[], r.account_value, r.wants_fills, to_timestamp(r.trade_ms / 1000.0)
           FROM jsonb_to_recordset($1::jsonb) AS r(address text, account_value numeric, wants_fills boolean, trade_ms bigint)
         ON CONFLICT (address) DO UPDATE SET
           sources = CASE WHEN $2 = ANY(hl_addresses.sources) THEN hl_addresses.sources ELSE hl_addresses.sources || $2::text END,
           tags = ARRAY(SELECT DISTINCT unnest(hl_addresses.tags || EXCLUDED.tags) ORDER BY 1),
           account_value = CASE WHEN $4 THEN EXCLUDED.account_value ELSE hl_addresses.account_value END,
           wants_fills = hl_addresses.wants_fills OR EXCLUDED.wants_fills,
           last_active_at = GREATEST(EXCLUDED.last_active_at, hl_addresses.last_active_at),
           next_poll_at = CASE WHEN EXCLUDED.last_active_at > hl_addresses.polled_at
                               THEN LEAST(hl_addresses.next_poll_at, now()) ELSE hl_addresses.next_poll_at END`,
        [JSON.stringify(rows), source, tags ?? [], replacesValue],
      );
    }
  }

  async markVaults(addresses: string[]): Promise<void> {
    // Recorded even when no source listed them yet, so trades can never bring a vault into the polled universe.
    await this.db.query(
      `INSERT INTO hl_addresses (address, is_vault) SELECT unnest($1::text[]), true
       ON CONFLICT (address) DO UPDATE SET is_vault = true WHERE NOT hl_addresses.is_vault`,
      [addresses],
    );
    await this.db.query(`UPDATE hl_addresses SET is_vault = false WHERE is_vault AND NOT address = ANY($1::text[])`, [addresses]);
    // A vault polled before it was known as one (trades found it first) would otherwise keep its last state
    // forever, since vaults are never polled again: drop it so no snapshot lists it.
    for (const table of ['hl_positions', 'hl_spot_balances']) {
      await this.db.query(`DELETE FROM ${table} s USING hl_addresses a WHERE a.address = s.address AND a.is_vault`);
    }
  }

  /**
   * Large and active accounts first: due addresses (a trade after the last read makes one due at once, see
   * upsertAddresses) by account value, never-polled ones before all. `fullReadDue` says whether this read
   * must cover every HIP-3 dex: never read in full, last read in full longer than `fullReadIntervalMs` ago,
   * or seen trading since (a trade can open a position on a dex it held nothing on). Measured from the last
   * full read rather than the last read: trades are noticed minutes late, so one made before a partial read
   * may be recorded after it, and a failed read must not use up the trade either.
   */
  async dueAddresses({
    limit,
    fullReadIntervalMs,
  }: {
    limit: number;
    fullReadIntervalMs: number;
  }): Promise<Array<{ address: string; accountValue: string; fullReadDue: boolean }>> {
    const rows: Array<{ address: string; account_value: string; full_read_due: boolean }> = await this.db.query(
      `SELECT address, account_value::text,
              (full_read_at IS NULL OR full_read_at <= now() - $2 * interval '1 millisecond' OR COALESCE(last_active_at > full_read_at, false))
                AS full_read_due
         FROM hl_addresses
        WHERE NOT is_vault AND next_poll_at <= now()
        ORDER BY polled_at IS NULL DESC, account_value DESC, address LIMIT $1`,
      [limit, fullReadIntervalMs],
    );
    return rows.map((r) => ({ address: r.address, accountValue: r.account_value, fullReadDue: r.full_read_due }));
  }

  async addressesWantingFills(limit: number): Promise<Array<{ address: string; polledUntil: number | null }>> {
    const rows: Array<{ address: string; fills_polled_until: string | null }> = await this.db.query(
      `SELECT address, fills_polled_until FROM hl_addresses WHERE wants_fills AND NOT is_vault
        ORDER BY fills_polled_until NULLS FIRST, address LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({ address: r.address, polledUntil: r.fills_polled_until === null ? null : Number(r.fills_polled_until) }));
  }

  async saveFills(address: string, fills: FillRow[], polledUntil: number): Promise<void> {
    if (fills.length > 0) {
      await this.db.query(
        `INSERT INTO hl_fills (address, fill_key, coin, time, px, sz, side, dir, closed_pnl, fee)
         SELECT address, fill_key, coin, to_timestamp(time_ms / 1000.0), px, sz, side, dir, closed_pnl, fee
           FROM jsonb_to_recordset($1::jsonb) AS r(address text, fill_key text, coin text, time_ms bigint, px numeric, sz numeric,
                side text, dir text, closed_pnl numeric, fee numeric)
         ON CONFLICT (address, fill_key) DO NOTHING`,
        [
          JSON.stringify(
            fills.map((f) => ({
              address: f.address,
              fill_key: f.fillKey,
              coin: f.coin,
              time_ms: f.timeMs,
              px: f.px,
              sz: f.sz,
              side: f.side,
              dir: f.dir,
              closed_pnl: f.closedPnl,
              fee: f.fee,
            })),
          ),
        ],
      );
    }
    await this.db.query(`UPDATE hl_addresses SET fills_polled_until = $2 WHERE address = $1`, [address, polledUntil]);
  }

  /** Deletes up to `limit` fills older than the retention (oldest first); returns how many went. */
  async pruneFills({ olderThanDays, limit }: { olderThanDays: number; limit: number }): Promise<number> {
    const [{ n }] = await this.db.query(
      `WITH old AS (
         SELECT address, fill_key FROM hl_fills WHERE time < now() - make_interval(days => $1) ORDER BY time LIMIT $2
       ), gone AS (
         DELETE FROM hl_fills f USING old WHERE f.address = old.address AND f.fill_key = old.fill_key RETURNING 1
       )
       SELECT count(*)::int AS n FROM gone`,
      [olderThanDays, limit],
    );
    return n;
  }
}
