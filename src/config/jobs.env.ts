import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { toBoolean, toInt } from './env-validators';

/**
 * The schedule's settings: the replica's and each job's switch, the hl.* jobs' cadences and bounds, and
 * housekeeping. The base of the settings classes (EconomyVariables extends it).
 */
export class JobVariables {
  // The schedule of this replica as a whole; job:run runs any job whatever the switches say.
  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  JOBS_ENABLED = true;

  // Every hl.* job at once (each also has its own switch below).
  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  HL_JOBS_ENABLED = true;

  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  HL_MARKETS_ENABLED = true;

  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  HL_MIDS_ENABLED = true;

  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  HL_POSITIONS_ENABLED = true;

  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  HL_TRADES_ENABLED = true;

  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  HL_FILLS_ENABLED = true;

  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  HL_LEADERBOARD_ENABLED = true;

  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  HL_SNAPSHOT_ENABLED = true;

  // Unset: twice HL_SNAPSHOT_INTERVAL_MS (the catalogue changes far less often than positions).
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(86_400_000)
  HL_MARKETS_INTERVAL_MS?: number;

  @Transform(toInt)
  @IsInt()
  @Min(500)
  @Max(3_600_000)
  HL_MIDS_INTERVAL_MS = 3000;

  @Transform(toInt)
  @IsInt()
  @Min(500)
  @Max(3_600_000)
  HL_POSITIONS_INTERVAL_MS = 5000;

  @Transform(toInt)
  @IsInt()
  @Min(500)
  @Max(3_600_000)
  HL_TRADES_INTERVAL_MS = 10_000;

  // Unset: HL_TRADES_INTERVAL_MS (fills are read for the traders the trade discovery found).
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(500)
  @Max(3_600_000)
  HL_FILLS_INTERVAL_MS?: number;

  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  HL_SNAPSHOT_INTERVAL_MS = 15_000;

  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(86_400_000)
  HL_LEADERBOARD_INTERVAL_MS = 60_000;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  HL_POLL_CONCURRENCY = 8;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  HL_POLL_BATCH = 200;

  // An hour: how long a HIP-3 position opened without a trade we saw can go unread. 0 reads every dex every time.
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400_000)
  HL_FULL_READ_INTERVAL_MS = 3_600_000;

  // At least 2: a reader that looked up the current id just before a publish must still find its partition.
  @Transform(toInt)
  @IsInt()
  @Min(2)
  @Max(100)
  HL_SNAPSHOT_RETENTION = 3;

  // A week: the smart-trader aggregates are over the fills held, and a trader's first read goes back 7 days.
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(365)
  HL_FILLS_RETENTION_DAYS = 7;

  // A week of run history (~70,000 rows a day at the default cadences); each job's newest run is always kept.
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(365)
  JOB_RUNS_RETENTION_DAYS = 7;

  // housekeeping.job-runs: prunes job_runs past JOB_RUNS_RETENTION_DAYS, 10,000 rows a batch.
  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  HOUSEKEEPING_JOB_RUNS_ENABLED = true;

  // Ten minutes: the default cadences add ~500 runs in that time, well within one batch.
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(86_400_000)
  HOUSEKEEPING_JOB_RUNS_INTERVAL_MS = 600_000;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10_000)
  HL_HOLDER_PAGES_CACHED = 500;
}
