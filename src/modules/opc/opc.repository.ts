import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface OpcFields {
  name: string;
  subdomain: string;
  logoUrl: string;
  styleConfig: Record<string, unknown>;
  frontendFeeTenthsBps: number;
  builderAddress: string;
}

export interface OpcRow extends OpcFields {
  id: string;
  ownerAddress: string;
  isActive: boolean;
  billingAnchorAt: Date;
}

export interface RevenueEntryRow {
  id: string;
  amount: string;
  periodStart: Date;
  periodEnd: Date;
  createdAt: Date;
}

const UNIQUE_VIOLATION = '23505';
const OPC_COLUMNS = `o.id, a.wallet_address AS "ownerAddress", o.name, o.subdomain, o.logo_url AS "logoUrl", o.style_config AS "styleConfig",
  o.frontend_fee_tenths_bps AS "frontendFeeTenthsBps", o.builder_address AS "builderAddress", o.is_active AS "isActive",
  o.billing_anchor_at AS "billingAnchorAt"`;

/** An account's OPC configuration and its revenue entries. */
@Injectable()
export class OpcRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async find(accountId: string): Promise<OpcRow | undefined> {
    const [row] = await this.db.query(`SELECT ${OPC_COLUMNS} FROM opc_configs o JOIN accounts a ON a.id = o.account_id WHERE o.account_id = $1`, [accountId]);
    return row;
  }

  /**
   * Creates or replaces the account's configuration. Answers the row, or which unique field another OPC
   * already holds (`subdomain`, `builderAddress`).
   */
  async upsert(accountId: string, fields: OpcFields): Promise<OpcRow | 'subdomain' | 'builderAddress'> {
    try {
      await this.db.query(
        `INSERT INTO opc_configs (account_id, name, subdomain, logo_url, style_config, frontend_fee_tenths_bps, builder_address)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)
         ON CONFLICT (account_id) DO UPDATE SET name = EXCLUDED.name, subdomain = EXCLUDED.subdomain, logo_url = EXCLUDED.logo_url,
           style_config = EXCLUDED.style_config, frontend_fee_tenths_bps = EXCLUDED.frontend_fee_tenths_bps,
           builder_address = EXCLUDED.builder_address, updated_at = now()`,
        [accountId, fields.name, fields.subdomain, fields.logoUrl, JSON.stringify(fields.styleConfig), fields.frontendFeeTenthsBps, fields.builderAddress],
      );
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code === UNIQUE_VIOLATION && constraint === 'opc_configs_subdomain_idx') return 'subdomain';
      if (code === UNIQUE_VIOLATION && constraint === 'opc_configs_builder_idx') return 'builderAddress';
      throw error;
    }
    return (await this.find(accountId))!;
  }

  /** Activation sets the billing anchor the first time only; answers the row, or undefined when the account has no OPC. */
  async setActive(accountId: string, active: boolean): Promise<OpcRow | undefined> {
    // Counted in a SELECT: TypeORM answers a bare UPDATE ... RETURNING with [rows, count].
    const [{ updated }]: Array<{ updated: number }> = await this.db.query(
      `WITH updated AS (
         UPDATE opc_configs SET is_active = $2, updated_at = now(),
                billing_anchor_at = CASE WHEN $2 AND NOT activated THEN now() ELSE billing_anchor_at END,
                activated = activated OR $2
          WHERE account_id = $1 RETURNING 1
       )
       SELECT count(*)::int AS updated FROM updated`,
      [accountId, active],
    );
    return updated > 0 ? this.find(accountId) : undefined;
  }

  async revenueEntries(opcId: string, page: { offset: number; take: number }): Promise<RevenueEntryRow[]> {
    return this.db.query(
      `SELECT id::text, amount::text, period_start AS "periodStart", period_end AS "periodEnd", created_at AS "createdAt"
         FROM opc_revenue_entries WHERE opc_id = $1 ORDER BY period_start DESC OFFSET $2 LIMIT $3`,
      [opcId, page.offset, page.take],
    );
  }

  async countRevenueEntries(opcId: string): Promise<number> {
    const [{ count }] = await this.db.query(`SELECT count(*)::int AS count FROM opc_revenue_entries WHERE opc_id = $1`, [opcId]);
    return count;
  }

  async totalRevenue(opcId: string): Promise<string> {
    const [{ total }] = await this.db.query(`SELECT COALESCE(sum(amount), 0)::text AS total FROM opc_revenue_entries WHERE opc_id = $1`, [opcId]);
    return total;
  }

  /** Every OPC owner's revenue to date: what the OPC claim rounds pay from. */
  async allRevenueTotals(): Promise<Array<{ accountId: string; address: string; revenue: string }>> {
    return this.db.query(
      `SELECT o.account_id AS "accountId", a.wallet_address AS address, COALESCE(sum(e.amount), 0)::text AS revenue
         FROM opc_configs o JOIN accounts a ON a.id = o.account_id
         LEFT JOIN opc_revenue_entries e ON e.opc_id = o.id
        GROUP BY o.account_id, a.wallet_address`,
    );
  }
}
