import { HttpAdapterHost } from '@nestjs/core';
import { DataAgeHeader, oldestOf } from './data-age';

describe(oldestOf.name, () => {
  it('takes the earliest time and ignores missing ones', () => {
    expect(oldestOf(30, null, 10, undefined, 20)).toBe(10);
    expect(oldestOf(null, undefined)).toBeNull();
  });
});

describe(DataAgeHeader.name, () => {
  const setHeader = jest.fn();
  const sut = new DataAgeHeader({ httpAdapter: { isHeadersSent: () => false, setHeader } } as unknown as HttpAdapterHost);

  beforeEach(() => setHeader.mockReset());

  it('sets Age in whole seconds since the data left the upstream and hands the data back', () => {
    expect(sut.send('res', { data: 'body', asOf: 1_000 }, 3_999)).toBe('body');
    expect(setHeader).toHaveBeenCalledWith('res', 'age', '2');
  });

  it('never sends a negative age (a clock a little ahead elsewhere), and 0 for an answer without upstream figures', () => {
    sut.send('res', { data: 'body', asOf: 5_000 }, 4_000);
    expect(setHeader).toHaveBeenLastCalledWith('res', 'age', '0');
    sut.send('res', { data: 'body', asOf: null }, 9_000);
    expect(setHeader).toHaveBeenLastCalledWith('res', 'age', '0');
    expect(setHeader).toHaveBeenCalledTimes(2);
  });
});
