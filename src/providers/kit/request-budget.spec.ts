import { getEventListeners } from 'node:events';
import { MemoryData } from '../../infra/kv/memory-data';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { upstreamBudgetRemaining } from '../../infra/metrics/metrics';
import { UpstreamError } from './upstream.error';
import { RequestBudget, SPEND_WEIGHT_SCRIPT } from './request-budget';

const WINDOW_MS = 60_000;

describe(RequestBudget.name, () => {
  let now: number;
  let sleeps: number[];
  let kv: MemoryKvStore;

  const makeBudget = (weightPerWindow: number, historySharePercent?: number) =>
    new RequestBudget({
      kv,
      provider: 'acme',
      weightPerWindow,
      windowMs: WINDOW_MS,
      historySharePercent,
      now: () => now,
      random: () => 0,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    });

  beforeEach(() => {
    now = 1_000;
    sleeps = [];
    kv = new MemoryKvStore(new MemoryData(() => now));
  });

  it('spends from the current minute window without waiting while the weight fits', async () => {
    const sut = makeBudget(100);
    await sut.spend(40);
    await sut.spend(60);
    expect(sleeps).toEqual([]);
    expect(await kv.get('budget:acme:0')).toBe('100');
  });

  it('waits for the next window when the weight does not fit, with one sleep and no polling', async () => {
    const sut = makeBudget(100);
    await sut.spend(80);
    const run = jest.spyOn(kv, 'run');
    await sut.spend(30);
    expect(sleeps).toEqual([WINDOW_MS - 1_000]);
    expect(run).toHaveBeenCalledTimes(2);
    expect(await kv.get('budget:acme:0')).toBe('80');
    expect(await kv.get('budget:acme:1')).toBe('30');
  });

  it('treats weightPerWindow 0 as unlimited and touches no key', async () => {
    const sut = makeBudget(0);
    const run = jest.spyOn(kv, 'run');
    for (let i = 0; i < 100; i++) await sut.spend(1_000);
    await sut.charge(1_000);
    expect(sleeps).toEqual([]);
    expect(run).not.toHaveBeenCalled();
  });

  it('lets a request heavier than the whole budget through alone in an empty window', async () => {
    const sut = makeBudget(10);
    await sut.spend(50);
    expect(sleeps).toEqual([]);
    await sut.spend(1);
    expect(sleeps).toHaveLength(1);
  });

  it('does not deadlock an oversize request behind a partly used window', async () => {
    const sut = makeBudget(10);
    await sut.spend(5);
    await sut.spend(50);
    expect(sleeps).toEqual([WINDOW_MS - 1_000]);
    expect(await kv.get('budget:acme:1')).toBe('50');
  });

  it('charges a surcharge past the cap without waiting, so the next spend waits', async () => {
    const sut = makeBudget(100);
    await sut.spend(90);
    await sut.charge(30);
    expect(await kv.get('budget:acme:0')).toBe('120');
    expect(sleeps).toEqual([]);
    await sut.spend(2);
    expect(sleeps).toHaveLength(1);
  });

  it('gives up with kind budget when the wait would exceed maxWaitMs', async () => {
    const sut = makeBudget(10);
    await sut.spend(10);
    const error = await sut.spend(1, { maxWaitMs: 1_000 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'budget' });
  });

  it('keeps a dozen waiters for the next window on one abort listener, and ends them all as aborted', async () => {
    const sut = new RequestBudget({ kv, provider: 'acme', weightPerWindow: 10, windowMs: WINDOW_MS, now: () => now });
    await sut.spend(10);
    const stopping = new AbortController();
    const waiters = Array.from({ length: 12 }, () => sut.spend(2, { signal: stopping.signal }));
    await new Promise((resolve) => setImmediate(resolve));

    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(1);
    expect(sut.waiting).toBe(12);
    stopping.abort();
    const settled = await Promise.allSettled(waiters);
    expect(sut.waiting).toBe(0);
    expect(settled.map((s) => (s.status === 'rejected' ? (s.reason as UpstreamError).kind : s.status))).toEqual(Array(12).fill('aborted'));
  });

  it('lets a window key expire after two windows', async () => {
    const sut = makeBudget(100);
    await sut.spend(10);
    now += 2 * WINDOW_MS;
    expect(await kv.get('budget:acme:0')).toBeNull();
  });

  it('shares one pool between two budgets on the same store (two replicas)', async () => {
    const a = makeBudget(100);
    const b = makeBudget(100);
    await a.spend(60);
    await b.spend(60);
    expect(sleeps).toHaveLength(1);
  });

  describe('history share', () => {
    const history = true;

    it('caps history reads at their share while light requests still pass', async () => {
      const sut = makeBudget(100, 25);
      await sut.spend(20, { history });
      for (let i = 0; i < 10; i++) await sut.spend(2);
      expect(sleeps).toEqual([]);

      await sut.spend(20, { history });

      expect(sleeps).toEqual([WINDOW_MS - 1_000]);
      expect(await kv.get('budget:acme:0')).toBe('40');
      expect(await kv.get('budget:acme:history:0')).toBe('20');
      expect(await kv.get('budget:acme:history:1')).toBe('20');
    });

    it('still holds the whole cap when the history share has room', async () => {
      const sut = makeBudget(100, 50);
      await sut.spend(70);
      await sut.spend(20, { history });

      await sut.spend(20, { history });

      expect(sleeps).toEqual([WINDOW_MS - 1_000]);
      expect(await kv.get('budget:acme:history:0')).toBe('20');
      expect(await kv.get('budget:acme:1')).toBe('20');
    });

    it('lets a history read heavier than its share through alone in an empty history window', async () => {
      const sut = makeBudget(100, 10);
      await sut.spend(30);
      await sut.spend(20, { history });
      expect(sleeps).toEqual([]);

      await sut.spend(20, { history });

      expect(sleeps).toHaveLength(1);
      expect(await kv.get('budget:acme:history:1')).toBe('20');
    });

    it('counts the surcharge of a history read against the share, without waiting', async () => {
      const sut = makeBudget(100, 25);
      await sut.spend(20, { history });
      await sut.charge(10, { history });
      expect(await kv.get('budget:acme:history:0')).toBe('30');
      expect(sleeps).toEqual([]);

      await sut.spend(2);
      expect(sleeps).toEqual([]);
      await sut.spend(2, { history });

      expect(sleeps).toHaveLength(1);
      expect(await kv.get('budget:acme:0')).toBe('32');
    });

    it('admits one history read per window at share 0', async () => {
      const sut = makeBudget(100, 0);
      await sut.spend(20, { history });

      await sut.spend(20, { history });

      expect(sleeps).toHaveLength(1);
      expect(await kv.get('budget:acme:history:1')).toBe('20');
    });
  });

  it('waits in real time across a short window', async () => {
    const real = new RequestBudget({ kv: new MemoryKvStore(), provider: 'acme', weightPerWindow: 10, windowMs: 100 });
    await real.spend(10);
    const windowBefore = real.windowKey();
    await real.spend(1);
    expect(real.windowKey()).not.toBe(windowBefore);
  });

  it('publishes the weight left in the window, shared by every replica, as the budget gauge', async () => {
    const a = makeBudget(100);
    const b = makeBudget(100);
    await a.spend(30);
    await b.spend(25);
    const gauge = await upstreamBudgetRemaining.get();
    expect(gauge.values.find((v) => v.labels.provider === 'acme')?.value).toBe(45);
  });

  it('keeps the Lua body and its twin on the same commands', () => {
    expect(SPEND_WEIGHT_SCRIPT.lua).toContain("redis.call('INCRBY', KEYS[1], weight)");
    expect(SPEND_WEIGHT_SCRIPT.lua).toContain("redis.call('PEXPIRE', KEYS[1], ARGV[3])");
    expect(SPEND_WEIGHT_SCRIPT.lua).toContain("redis.call('INCRBY', KEYS[2], weight)");
    expect(SPEND_WEIGHT_SCRIPT.lua).toContain("redis.call('PEXPIRE', KEYS[2], ARGV[3])");
  });
});
