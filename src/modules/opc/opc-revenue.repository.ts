import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** An OPC's revenue as entries per UTC day: the builder fees its builder address was paid on that day's fills. */
@Injectable()
export class OpcRevenueRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The builder addresses of active OPCs: their fills are read like the service's own. */
  async activeBuilders(): Promise<Array<{ address: string; feeTenthsBps: number }>> {
    return this.db.query(
      `SELECT builder_address AS address, frontend_fee_tenths_bps AS "feeTenthsBps" FROM opc_configs WHERE is_active ORDER BY builder_address`,
    );
  }

  /**
   * Recomputes the entries of the last `days` days from builder_fills (older days' files never change once
   * read). An entry is updated only when its amount changed, so a re-run writes nothing. Answers the entries written.
   */
  async refresh(days: number): Promise<number> {
    const rows: Array<{ id: string }> = await this.db.query(
      `INSERT INTO opc_revenue_entries (opc_id, period_start, period_end, amount)
       SELECT o.id, d.day, d.day + interval '1 day', sum(f.builder_fee)
         FROM opc_configs o
         JOIN builder_fills f ON f.builder = o.builder_address
         CROSS JOIN LATERAL (SELECT date_trunc('day', f.fill_time, 'UTC') AS day) d
        WHERE f.fill_time >= date_trunc('day', now(), 'UTC') - make_interval(days => $1::int)
        GROUP BY o.id, d.day
       ON CONFLICT (opc_id, period_start) DO UPDATE SET amount = EXCLUDED.amount, updated_at = now()
        WHERE opc_revenue_entries.amount <> EXCLUDED.amount
       RETURNING id`,
      [days],
    );
    return rows.length;
  }
}
