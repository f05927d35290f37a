import { Logger } from '@nestjs/common';
import { CallSettlements } from './call-settlements';

describe(CallSettlements.name, () => {
  const storeDown = () => Promise.reject(new Error('Connection is closed.'));
  let warn: jest.SpyInstance;
  let error: jest.SpyInstance;

  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it("names the call's request id on the line of a void that did not land, and of one that never did", async () => {
    const sut = new CallSettlements();

    await expect(sut.settle({ label: 'void of r-1', requestId: 'r-1', run: storeDown, recordTtlMs: 60_000 })).resolves.toBeUndefined();
    await sut.onApplicationShutdown();

    expect(warn).toHaveBeenCalledWith({ msg: expect.stringContaining('void of r-1 did not land'), requestId: 'r-1' });
    expect(error).toHaveBeenCalledWith({ msg: expect.stringContaining('void of r-1 never landed'), requestId: 'r-1' });
    expect(sut.pendingCount).toBe(0);
  });

  it('logs a settlement no request owns (a batch given up) without a request id', async () => {
    const sut = new CallSettlements();

    await sut.settle({ label: 'give-up of admission batch b-1', run: storeDown, recordTtlMs: 60_000 });
    await sut.onApplicationShutdown();

    expect(warn).toHaveBeenCalledWith(expect.stringContaining('give-up of admission batch b-1 did not land'));
  });
});
