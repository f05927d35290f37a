import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { partitionName } from '../hl/snapshot/snapshot-tables';

export interface CohortRow {
  id: string;
  name: string;
  address_count: number;
  created_at: Date;
  updated_at: Date;
}

export interface CohortMemberRow {
  address: string;
  tags: string[];
  added_at: Date;
}

export interface CohortMemberInput {
  address: string;
  /** Replaces the member's tags when given; undefined keeps them. */
  tags?: string[];
}

export interface CohortPositionRow {
  address: string;
  tags: string[];
  coin: string;
  side: 'long' | 'short';
  size: string;
  entry_price: string;
  mark_price: string;
  value: string;
  upnl: string;
  leverage: string;
  liquidation_price: string | null;
}

const COHORT_COLUMNS = `c.id, c.name, c.created_at, c.updated_at,
  (SELECT count(*)::int FROM cohort_addresses a WHERE a.cohort_id = c.id) AS address_count`;

/** All SQL over cohorts and their members; writes take the owner's account lock (see inAccountLock). */
@Injectable()
export class CohortsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Runs `work` in a transaction holding the owning account's row lock, so two concurrent writes of one
   * account cannot both pass a limit check. NO KEY UPDATE: it serialises these writers without blocking
   * inserts elsewhere that only reference the account (API keys, for one).
   */
  inAccountLock<T>(accountId: string, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE`, [accountId]);
      return work(tx);
    });
  }

  list(accountId: string): Promise<CohortRow[]> {
    return this.db.query(`SELECT ${COHORT_COLUMNS} FROM cohorts c WHERE c.account_id = $1 ORDER BY c.created_at, c.id`, [accountId]);
  }

  async findOwned({ accountId, id }: { accountId: string; id: string }, tx: EntityManager = this.db.manager): Promise<CohortRow | null> {
    const rows: CohortRow[] = await tx.query(`SELECT ${COHORT_COLUMNS} FROM cohorts c WHERE c.id = $1 AND c.account_id = $2`, [id, accountId]);
    return rows[0] ?? null;
  }

  members(cohortId: string, tx: EntityManager = this.db.manager): Promise<CohortMemberRow[]> {
    return tx.query(`SELECT address, tags, added_at FROM cohort_addresses WHERE cohort_id = $1 ORDER BY added_at, address`, [cohortId]);
  }

  async countCohorts(tx: EntityManager, accountId: string): Promise<number> {
    const [{ n }] = await tx.query(`SELECT count(*)::int AS n FROM cohorts WHERE account_id = $1`, [accountId]);
    return n;
  }

  async countMembers(tx: EntityManager, cohortId: string): Promise<number> {
    const [{ n }] = await tx.query(`SELECT count(*)::int AS n FROM cohort_addresses WHERE cohort_id = $1`, [cohortId]);
    return n;
  }

  async nameTaken(tx: EntityManager, { accountId, name, exceptId }: { accountId: string; name: string; exceptId?: string }): Promise<boolean> {
    const rows: unknown[] = await tx.query(`SELECT 1 FROM cohorts WHERE account_id = $1 AND lower(name) = lower($2) AND ($3::uuid IS NULL OR id <> $3::uuid)`, [
      accountId,
      name,
      exceptId ?? null,
    ]);
    return rows.length > 0;
  }

  async insert(tx: EntityManager, { accountId, name }: { accountId: string; name: string }): Promise<string> {
    const [{ id }] = await tx.query(`INSERT INTO cohorts (account_id, name) VALUES ($1, $2) RETURNING id`, [accountId, name]);
    return id;
  }

  async rename(tx: EntityManager, { id, name }: { id: string; name: string }): Promise<void> {
    await tx.query(`UPDATE cohorts SET name = $2, updated_at = now() WHERE id = $1`, [id, name]);
  }

  async delete(tx: EntityManager, id: string): Promise<void> {
    await tx.query(`DELETE FROM cohorts WHERE id = $1`, [id]);
  }

  /** Adds members; a member given with tags gets exactly those, one given without keeps its own. */
  async upsertMembers(tx: EntityManager, cohortId: string, members: CohortMemberInput[]): Promise<void> {
    const tagged = members.filter((m) => m.tags !== undefined).map((m) => ({ address: m.address, tags: m.tags }));
    const untagged = members.filter((m) => m.tags === undefined).map((m) => m.address);
    if (tagged.length > 0) {
      await tx.query(
        `INSERT INTO cohort_addresses (cohort_id, address, tags)
         SELECT $1::uuid, r.address, ARRAY(SELECT jsonb_array_elements_text(r.tags))
           FROM jsonb_to_recordset($2::jsonb) AS r(address text, tags jsonb)
         ON CONFLICT (cohort_id, address) DO UPDATE SET tags = EXCLUDED.tags`,
        [cohortId, JSON.stringify(tagged)],
      );
    }
    if (untagged.length > 0) {
      await tx.query(
        `INSERT INTO cohort_addresses (cohort_id, address) SELECT $1::uuid, unnest($2::text[])
         ON CONFLICT (cohort_id, address) DO NOTHING`,
        [cohortId, untagged],
      );
    }
    await tx.query(`UPDATE cohorts SET updated_at = now() WHERE id = $1`, [cohortId]);
  }

  async removeMembers(tx: EntityManager, cohortId: string, addresses: string[]): Promise<void> {
    await tx.query(`DELETE FROM cohort_addresses WHERE cohort_id = $1 AND address = ANY($2::text[])`, [cohortId, addresses]);
    await tx.query(`UPDATE cohorts SET updated_at = now() WHERE id = $1`, [cohortId]);
  }

  /** How many perp positions the cohort's members hold in a market snapshot. */
  async countPositions({ cohortId, snapshotId }: { cohortId: string; snapshotId: number }): Promise<number> {
    const [{ n }] = await this.db.query(
      `SELECT count(*)::int AS n
         FROM cohort_addresses m JOIN ${partitionName('hl_perp_holders', snapshotId)} h ON h.address = m.address
        WHERE m.cohort_id = $1`,
      [cohortId],
    );
    return n;
  }

  /** One page of the members' perp positions in a market snapshot, largest first (ties by address, then coin). */
  positions({ cohortId, snapshotId, offset, limit }: { cohortId: string; snapshotId: number; offset: number; limit: number }): Promise<CohortPositionRow[]> {
    return this.db.query(
      `SELECT m.address, m.tags, h.coin, h.side, h.size::text AS size, h.entry_price::text AS entry_price,
              h.mark_price::text AS mark_price, h.value::text AS value, h.upnl::text AS upnl, h.leverage::text AS leverage,
              h.liquidation_price::text AS liquidation_price
         FROM cohort_addresses m JOIN ${partitionName('hl_perp_holders', snapshotId)} h ON h.address = m.address
        WHERE m.cohort_id = $1
        ORDER BY h.value DESC, m.address, h.coin
        LIMIT $2 OFFSET $3`,
      [cohortId, limit, offset],
    );
  }
}
