import { Logger } from '@nestjs/common';
import { ThrottledErrorLog } from './throttled-error-log';

describe(ThrottledErrorLog.name, () => {
  let now: number;
  let logger: { error: jest.Mock; log: jest.Mock };
  let sut: ThrottledErrorLog;

  beforeEach(() => {
    now = 0;
    logger = { error: jest.fn(), log: jest.fn() };
    sut = new ThrottledErrorLog(logger as unknown as Logger, 'usage sync', 60_000, () => now);
  });

  it('logs the first failure with its error, then at most one per interval with the count left out', () => {
    sut.failed(new Error('connection refused'));
    for (let i = 0; i < 10; i++) {
      now += 5_000;
      sut.failed(new Error('connection refused'));
    }
    now = 60_000;
    sut.failed(new Error('timeout'));

    expect(logger.error.mock.calls).toEqual([
      ['usage sync failed: connection refused'],
      ['usage sync failed (10 more failures since the last report): timeout'],
    ]);
  });

  it('says once that it works again, and logs the next failure at once', () => {
    sut.failed(new Error('down'));
    now += 1_000;
    sut.succeeded();
    sut.succeeded();
    now += 1_000;
    sut.failed(new Error('down again'));

    expect(logger.log.mock.calls).toEqual([['usage sync works again']]);
    expect(logger.error).toHaveBeenCalledTimes(2);
  });
});
