import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../../config/app.config';
import { HyperliquidInfoClient } from '../../../providers/hyperliquid/hyperliquid-info.client';
import { FillsJob } from './fills.job';
import { HlAddressesRepository } from './hl-addresses.repository';
import { HlFeedReadsRepository } from './hl-feed-reads.repository';

const DAY_MS = 24 * 3600 * 1000;
const NOW = Date.UTC(2027, 0, 15);
const TRADER = '0x' + 'a'.repeat(40);

describe(FillsJob.name, () => {
  let startTimes: number[];
  let stamps: Array<[string, Date]>;

  function makeSut(fillsRetentionDays: number, { upstreamDown = false } = {}): FillsJob {
    const client = {
      userFillsByTime: async (_user: string, startTime: number) => {
        if (upstreamDown) throw new Error('connection refused');
        startTimes.push(startTime);
        return [];
      },
    } as unknown as HyperliquidInfoClient;
    const addresses = {
      addressesWantingFills: async () => [{ address: TRADER, polledUntil: null }],
      saveFills: async () => undefined,
    } as unknown as HlAddressesRepository;
    const hlJobs = { pollBatch: 10, pollConcurrency: 1, fillsRetentionDays };
    const config = { get: (key: string) => (key === 'hlJobs' ? hlJobs : undefined) } as unknown as ConfigService<AppConfig, true>;
    const feeds = { stamp: async (feed: string, readAt: Date) => void stamps.push([feed, readAt]) } as unknown as HlFeedReadsRepository;
    return new FillsJob(client, addresses, feeds, config);
  }

  beforeEach(() => {
    startTimes = [];
    stamps = [];
    jest.useFakeTimers({ now: NOW });
  });
  afterEach(() => jest.useRealTimers());

  it("reads a new trader's fills from 7 days back", async () => {
    await makeSut(30).run();
    expect(startTimes).toEqual([NOW - 7 * DAY_MS]);
  });

  it('never reads further back than fills are kept', async () => {
    await makeSut(2).run();
    expect(startTimes).toEqual([NOW - 2 * DAY_MS]);
  });

  it('stamps the fills feed with the start of a run that read fills', async () => {
    const run = makeSut(30).run();
    jest.setSystemTime(NOW + 5_000);
    await run;
    expect(stamps).toEqual([['fills', new Date(NOW)]]);
  });

  it('stamps nothing when every read failed, so smart traders keep the time of the last fills read', async () => {
    const outcome = await makeSut(30, { upstreamDown: true }).run();
    expect(outcome.failures).toBe(1);
    expect(stamps).toEqual([]);
  });
});
