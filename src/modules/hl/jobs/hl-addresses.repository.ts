import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { FillRow } from './hl-state.repository';

const ADDRESS_CHUNK = 10_000;

export type AddressSource = 'leaderboard' | 'trades' | 'liquidation' | 'operator';

/** The address universe: where addresses come from, which are due for a read, and how far their fills were read. */
@Injectable()
export class HlAddressesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async upsertAddresses({ addresses, source, accountValues, tags, wantsFills, active }: {
    addresses: string[];
    source: AddressSource;
    accountValues?: Map<string, string>;
    tags?: string[];
    wantsFills?: Set<string>;
    active?: boolean;
  }): Promise<void> {
    if (addresses.length === 0) return;
    // Large documents (the leaderboard) go in chunks so one statement's payload stays a few MB.
    if (addresses.length > ADDRESS_CHUNK) {
      for (let i = 0; i < addresses.length; i += ADDRESS_CHUNK) {
        await this.upsertAddresses({ addresses: addresses.slice(i, i + ADDRESS_CHUNK), source, accountValues, tags, wantsFills, active });
      }
      return;
    }
    const rows = addresses.map((address) => ({
      address,
      account_value: accountValues?.get(address) ?? null,
      wants_fills: wantsFills?.has(address) ?? false,
    }));
    await this.db.query(
      `INSERT INTO hl_addresses (address, sources, tags, account_value, wants_fills, last_active_at)
       SELECT r.address, ARRAY[$2::text], $3::text[], COALESCE(r.account_value, 0), r.wants_fills, CASE WHEN $4 THEN now() END
         FROM jsonb_to_recordset($1::jsonb) AS r(address text, account_value numeric, wants_fills boolean)
       ON CONFLICT (address) DO UPDATE SET
         sources = CASE WHEN $2 = ANY(hl_addresses.sources) THEN hl_addresses.sources ELSE hl_addresses.sources || $2::text END,
         tags = ARRAY(SELECT DISTINCT unnest(hl_addresses.tags || EXCLUDED.tags) ORDER BY 1),
         account_value = COALESCE(EXCLUDED.account_value, hl_addresses.account_value),
         wants_fills = hl_addresses.wants_fills OR EXCLUDED.wants_fills,
         last_active_at = COALESCE(EXCLUDED.last_active_at, hl_addresses.last_active_at)`,
      [JSON.stringify(rows), source, tags ?? [], active ?? false],
    );
  }

  async markVaults(addresses: string[]): Promise<void> {
    // Recorded even when no source listed them yet, so trades can never bring a vault into the polled universe.
    await this.db.query(
      `INSERT INTO hl_addresses (address, is_vault) SELECT unnest($1::text[]), true
       ON CONFLICT (address) DO UPDATE SET is_vault = true WHERE NOT hl_addresses.is_vault`,
      [addresses],
    );
    await this.db.query(`UPDATE hl_addresses SET is_vault = false WHERE is_vault AND NOT address = ANY($1::text[])`, [addresses]);
  }

  /** Large and active accounts first: due addresses by account value, never-polled ones before all. */
  async dueAddresses(limit: number): Promise<Array<{ address: string; accountValue: string }>> {
    const rows: Array<{ address: string; account_value: string }> = await this.db.query(
      `SELECT address, account_value::text FROM hl_addresses
        WHERE NOT is_vault AND next_poll_at <= now()
        ORDER BY polled_at IS NULL DESC, account_value DESC, address LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({ address: r.address, accountValue: r.account_value }));
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
        [JSON.stringify(fills.map((f) => ({ address: f.address, fill_key: f.fillKey, coin: f.coin, time_ms: f.timeMs, px: f.px, sz: f.sz, side: f.side, dir: f.dir, closed_pnl: f.closedPnl, fee: f.fee })))],
      );
    }
    await this.db.query(`UPDATE hl_addresses SET fills_polled_until = $2 WHERE address = $1`, [address, polledUntil]);
  }
}
