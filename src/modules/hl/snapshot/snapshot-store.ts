import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { FeedReadTimes, parseFeedReadTimes } from './snapshot-freshness';
import { partitionName, SNAPSHOT_KINDS, SnapshotKind, SnapshotTable } from './snapshot-tables';

export interface CurrentSnapshot {
  id: number;
  kind: SnapshotKind;
  /** When the snapshot was built; how old its data is comes from feedsReadAt (answerTime). */
  snapshotTime: Date;
  rows: number;
  /** The feed stamps the snapshot was built from. */
  feedsReadAt: FeedReadTimes;
}

/**
 * The life of a snapshot: begin (a row in hl_snapshots and empty standalone tables to bulk-load), publish
 * (attach every partition and point `current` at it in one transaction, so readers see all of it or none),
 * and prune (drop whole partitions beyond the retention). A run that dies before publishing leaves the
 * previous snapshot current; its leftovers are dropped by the next prune.
 */
@Injectable()
export class SnapshotStore {
  private readonly logger = new Logger(SnapshotStore.name);

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async begin(kind: SnapshotKind, snapshotTime: Date): Promise<number> {
    const [{ id }] = await this.db.query(`INSERT INTO hl_snapshots (kind, status, snapshot_time) VALUES ($1, 'building', $2) RETURNING id`, [
      kind,
      snapshotTime,
    ]);
    const snapshotId = Number(id);
    for (const table of SNAPSHOT_KINDS[kind]) {
      const partition = partitionName(table, snapshotId);
      await this.db.query(`DROP TABLE IF EXISTS ${partition}`);
      // Standalone until publish: loading a table with no parent and no indexes is the fast path.
      await this.db.query(`CREATE TABLE ${partition} (LIKE ${table} INCLUDING DEFAULTS)`);
    }
    return snapshotId;
  }

  /** Indexes are built after the bulk load, named so ATTACH adopts them instead of building new ones. */
  async publish({
    kind,
    snapshotId,
    rows,
    coverage,
    feedsReadAt = {},
  }: {
    kind: SnapshotKind;
    snapshotId: number;
    rows: number;
    coverage?: unknown;
    feedsReadAt?: FeedReadTimes;
  }) {
    for (const table of SNAPSHOT_KINDS[kind]) {
      const partition = partitionName(table, snapshotId);
      for (const columns of await this.parentIndexColumns(table)) {
        await this.db.query(`CREATE INDEX ON ${partition} (${columns})`);
      }
      await this.db.query(`ALTER TABLE ${partition} ADD CHECK (snapshot_id = ${snapshotId})`);
      await this.db.query(`ANALYZE ${partition}`);
    }
    await this.db.transaction(async (manager: EntityManager) => {
      for (const table of SNAPSHOT_KINDS[kind]) {
        await manager.query(`ALTER TABLE ${table} ATTACH PARTITION ${partitionName(table, snapshotId)} FOR VALUES IN (${snapshotId})`);
      }
      await manager.query(`UPDATE hl_snapshots SET status = 'published', published_at = now(), rows = $2, coverage = $3, feeds_read_at = $4 WHERE id = $1`, [
        snapshotId,
        rows,
        coverage === undefined ? null : JSON.stringify(coverage),
        JSON.stringify(feedsReadAt),
      ]);
      await manager.query(
        `INSERT INTO hl_current_snapshots (kind, snapshot_id) VALUES ($1, $2)
         ON CONFLICT (kind) DO UPDATE SET snapshot_id = EXCLUDED.snapshot_id
           WHERE hl_current_snapshots.snapshot_id < EXCLUDED.snapshot_id`,
        [kind, snapshotId],
      );
    });
  }

  async current(kind: SnapshotKind): Promise<CurrentSnapshot | null> {
    const rows: Array<{ id: string; snapshot_time: Date; rows: number; feeds_read_at: Record<string, string> | null }> = await this.db.query(
      `SELECT s.id, s.snapshot_time, s.rows, s.feeds_read_at FROM hl_current_snapshots c JOIN hl_snapshots s ON s.id = c.snapshot_id WHERE c.kind = $1`,
      [kind],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: Number(row.id),
      kind,
      snapshotTime: new Date(row.snapshot_time),
      rows: Number(row.rows),
      feedsReadAt: parseFeedReadTimes(row.feeds_read_at),
    };
  }

  /** Keeps the newest `retain` published snapshots of a kind; drops older ones and abandoned builds. */
  async prune(kind: SnapshotKind, retain: number): Promise<number> {
    const doomed: Array<{ id: string }> = await this.db.query(
      `SELECT id FROM hl_snapshots s
        WHERE s.kind = $1
          AND s.id NOT IN (SELECT snapshot_id FROM hl_current_snapshots)
          AND (
            (s.status = 'published' AND s.id NOT IN (
               SELECT id FROM hl_snapshots WHERE kind = $1 AND status = 'published' ORDER BY id DESC LIMIT $2))
            OR (s.status <> 'published' AND s.started_at < now() - interval '10 minutes')
          )`,
      [kind, retain],
    );
    for (const { id } of doomed) {
      for (const table of SNAPSHOT_KINDS[kind]) await this.dropPartition(table, Number(id));
      await this.db.query(`DELETE FROM hl_snapshot_coins WHERE snapshot_id = $1`, [id]);
      await this.db.query(`DELETE FROM hl_snapshots WHERE id = $1`, [id]);
    }
    if (doomed.length > 0) this.logger.log(`pruned ${doomed.length} ${kind} snapshot(s)`);
    return doomed.length;
  }

  /**
   * Detaching CONCURRENTLY first keeps readers of the parent from queueing behind the exclusive lock a
   * plain DROP of an attached partition takes; a partition that was never attached is simply dropped.
   */
  private async dropPartition(table: SnapshotTable, snapshotId: number): Promise<void> {
    const partition = partitionName(table, snapshotId);
    const [{ attached }] = await this.db.query(`SELECT EXISTS (SELECT 1 FROM pg_inherits WHERE inhrelid = to_regclass($1)) AS attached`, [partition]);
    if (attached) {
      await this.db
        .query(`ALTER TABLE ${table} DETACH PARTITION ${partition} CONCURRENTLY`)
        .catch((error: Error) => this.logger.warn(`detaching ${partition} concurrently failed (${error.message}); dropping it attached`));
    }
    await this.db.query(`DROP TABLE IF EXISTS ${partition}`);
  }

  /** The column lists of the partitioned parent's indexes, read from the catalog (one source: the migration). */
  private async parentIndexColumns(table: SnapshotTable): Promise<string[]> {
    const rows: Array<{ def: string }> = await this.db.query(`SELECT pg_get_indexdef(i.indexrelid) AS def FROM pg_index i WHERE i.indrelid = $1::regclass`, [
      table,
    ]);
    return rows.map((r) => /\((.*)\)\s*$/.exec(r.def)![1]);
  }
}
