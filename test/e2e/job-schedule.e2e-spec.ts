import { SchedulerRegistry } from '@nestjs/schedule';
import { JobRegistry } from '../../src/jobs/job-registry';
import { createTestApp, TestApp } from '../support/create-test-app';
import { testConfig } from '../support/test-env';

/** Which registered jobs the app puts on a timer, as the configuration switches them. */
async function scheduledJobs(overrides: Record<string, string>): Promise<{ scheduled: string[]; registered: string[] }> {
  let t: TestApp | undefined;
  try {
    t = await createTestApp(testConfig(overrides));
    return {
      scheduled: t.app.get(SchedulerRegistry).getIntervals().sort(),
      registered: t.app
        .get(JobRegistry)
        .list()
        .map((job) => job.name),
    };
  } finally {
    await t?.close();
  }
}

describe('Job schedule switches (the whole app)', () => {
  it('keeps the housekeeping job on a timer when every hl.* job is off (HL_JOBS_ENABLED=false)', async () => {
    const { scheduled, registered } = await scheduledJobs({ HL_JOBS_ENABLED: 'false' });

    expect(scheduled).toEqual(['housekeeping.job-runs']);
    // Off is off the timer, not out of the registry: job:run still finds every job.
    expect(registered).toEqual(expect.arrayContaining(['hl.mids', 'hl.snapshot', 'housekeeping.job-runs']));
  });

  it('schedules each hl.* job that its own switch leaves on, and nothing with JOBS_ENABLED=false', async () => {
    const some = await scheduledJobs({
      HL_JOBS_ENABLED: 'true',
      HL_MARKETS_ENABLED: 'false',
      HL_POSITIONS_ENABLED: 'false',
      HL_TRADES_ENABLED: 'false',
      HL_FILLS_ENABLED: 'false',
      HL_LEADERBOARD_ENABLED: 'false',
      HL_SNAPSHOT_ENABLED: 'false',
      HOUSEKEEPING_JOB_RUNS_ENABLED: 'false',
      // Nothing listens there: the one job left on fails its runs, which is not what is under test.
      HYPERLIQUID_INFO_URL: 'http://127.0.0.1:9/info',
      HYPERLIQUID_MAX_RETRIES: '0',
    });
    const none = await scheduledJobs({ JOBS_ENABLED: 'false', HL_JOBS_ENABLED: 'true' });

    expect(some.scheduled).toEqual(['hl.mids']);
    expect(none.scheduled).toEqual([]);
  });
});
