import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { JobRunsRepository } from '../job-runs.repository';
import { JobOutcome } from '../job.types';
import { pruneInBatches } from '../prune-in-batches';

/**
 * `housekeeping.job-runs`: deletes run records past JOB_RUNS_RETENTION_DAYS (each job's newest run stays).
 * A job of its own, not a step of a data job, so it runs whichever area's jobs a replica has switched on.
 */
@Injectable()
export class JobRunsPruneJob {
  constructor(
    private readonly runs: JobRunsRepository,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async run(signal?: AbortSignal): Promise<JobOutcome> {
    const olderThanDays = this.config.get('jobs.runsRetentionDays', { infer: true });
    const rows = await pruneInBatches((limit) => this.runs.prune({ olderThanDays, limit }), signal);
    return { rows };
  }
}
