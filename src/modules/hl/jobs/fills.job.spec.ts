import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../../config/app.config';
import { HyperliquidInfoClient } from '../../../providers/hyperliquid/hyperliquid-info.client';
import { FillsJob } from './fills.job';
import { HlAddressesRepository } from './hl-addresses.repository';

const DAY_MS = 24 * 3600 * 1000;
const NOW = Date.UTC(2027, 0, 15);
const TRADER = '0x' + 'a'.repeat(40);

describe(FillsJob.name, () => {
  let startTimes: number[];

  function makeSut(fillsRetentionDays: number): FillsJob {
    const client = {
      userFillsByTime: async (_user: string, startTime: number) => (startTimes.push(startTime), []),
    } as unknown as HyperliquidInfoClient;
    const addresses = {
      addressesWantingFills: async () => [{ address: TRADER, polledUntil: null }],
      saveFills: async () => undefined,
    } as unknown as HlAddressesRepository;
    const hlJobs = { pollBatch: 10, pollConcurrency: 1, fillsRetentionDays };
    const config = { get: (key: string) => (key === 'hlJobs' ? hlJobs : undefined) } as unknown as ConfigService<AppConfig, true>;
    return new FillsJob(client, addresses, config);
  }

  beforeEach(() => {
    startTimes = [];
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
});
