import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { JobOutcome, JobStatus } from './job.types';

export interface JobRunRecord {
  id: number;
  name: string;
  holder: string;
  status: JobStatus | 'running';
  startedAt: Date;
  finishedAt: Date | null;
  rows: number | null;
  coverage: Record<string, number> | null;
  error: string | null;
}

/** The run record of every job run: what ops `job:status` shows. */
@Injectable()
export class JobRunsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async start(name: string, holder: string, startedAt: Date): Promise<number> {
    const [{ id }] = await this.db.query(`INSERT INTO job_runs (name, holder, status, started_at) VALUES ($1, $2, 'running', $3) RETURNING id`, [
      name,
      holder,
      startedAt,
    ]);
    return Number(id);
  }

  async finish(id: number, status: JobStatus, outcome: JobOutcome | undefined, error: string | undefined): Promise<void> {
    await this.db.query(`UPDATE job_runs SET status = $2, finished_at = now(), rows = $3, coverage = $4, error = $5 WHERE id = $1`, [
      id,
      status,
      outcome?.rows ?? null,
      outcome?.coverage ? JSON.stringify(outcome.coverage) : null,
      error ?? null,
    ]);
  }

  /** The newest run of each job, plus when it last succeeded. */
  async latest(): Promise<Array<JobRunRecord & { lastOkAt: Date | null }>> {
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT DISTINCT ON (r.name) r.*, (SELECT max(finished_at) FROM job_runs o WHERE o.name = r.name AND o.status = 'ok') AS last_ok_at
         FROM job_runs r ORDER BY r.name, r.id DESC`,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      name: String(r.name),
      holder: String(r.holder),
      status: r.status as JobRunRecord['status'],
      startedAt: new Date(r.started_at as string),
      finishedAt: r.finished_at ? new Date(r.finished_at as string) : null,
      rows: r.rows === null ? null : Number(r.rows),
      coverage: (r.coverage as Record<string, number>) ?? null,
      error: (r.error as string) ?? null,
      lastOkAt: r.last_ok_at ? new Date(r.last_ok_at as string) : null,
    }));
  }

  /**
   * Deletes up to `limit` runs older than the retention (oldest first); returns how many went. A job's newest
   * run stays whatever its age, so job:status still shows a job that has not run for a while.
   */
  async prune({ olderThanDays, limit }: { olderThanDays: number; limit: number }): Promise<number> {
    const [{ n }] = await this.db.query(
      `WITH old AS (
         SELECT r.id FROM job_runs r
          WHERE r.started_at < now() - make_interval(days => $1)
            AND EXISTS (SELECT 1 FROM job_runs newer WHERE newer.name = r.name AND newer.id > r.id)
          ORDER BY r.started_at LIMIT $2
       ), gone AS (
         DELETE FROM job_runs j USING old WHERE j.id = old.id RETURNING 1
       )
       SELECT count(*)::int AS n FROM gone`,
      [olderThanDays, limit],
    );
    return n;
  }

  /** Runs left 'running' by a process that died are closed as errors so status does not lie. */
  async closeAbandoned(name: string, olderThanMs: number): Promise<void> {
    await this.db.query(
      `UPDATE job_runs SET status = 'error', finished_at = now(), error = 'abandoned (holder stopped mid-run)'
        WHERE name = $1 AND status = 'running' AND started_at < now() - ($2 || ' milliseconds')::interval`,
      [name, String(olderThanMs)],
    );
  }
}
