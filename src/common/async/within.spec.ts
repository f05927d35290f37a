import { within } from './within';

describe(within.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('answers what the promise answers in time', async () => {
    await expect(within(Promise.resolve(7), 100, 'the store')).resolves.toBe(7);
  });

  it('rejects, naming what did not answer, once the time has passed first', async () => {
    const never = new Promise<number>(() => undefined);
    const outcome = within(never, 100, 'the store');
    jest.advanceTimersByTime(100);
    await expect(outcome).rejects.toThrow('the store got no answer within 100 ms');
  });
});
