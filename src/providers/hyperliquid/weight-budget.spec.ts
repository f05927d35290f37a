import { MemoryData } from '../../infra/kv/memory-data';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { extraWeight, hyperliquidWeightBudget, isHistoryType, requestWeight, WEIGHT_WINDOW_MS } from './weight-budget';

describe(hyperliquidWeightBudget.name, () => {
  it("spends per-minute windows under the provider's own keys, history reads also from their share", async () => {
    let now = 1_000;
    const kv = new MemoryKvStore(new MemoryData(() => now));
    const sleeps: number[] = [];
    const sut = hyperliquidWeightBudget({
      kv,
      weightPerMinute: 100,
      historySharePercent: 25,
      now: () => now,
      random: () => 0,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    });

    await sut.spend(20, { history: true });
    await sut.charge(5, { history: true });
    await sut.spend(2, { history: true });

    expect(await kv.get('budget:hyperliquid:0')).toBe('25');
    expect(await kv.get('budget:hyperliquid:history:0')).toBe('25');
    expect(sleeps).toEqual([WEIGHT_WINDOW_MS - 1_000]);
    expect(await kv.get('budget:hyperliquid:history:1')).toBe('2');
  });
});

describe('Hyperliquid request weights', () => {
  it('weighs the light types 2, userRole 60 and everything else 20', () => {
    expect(['allMids', 'clearinghouseState', 'spotClearinghouseState', 'l2Book'].map(requestWeight)).toEqual([2, 2, 2, 2]);
    expect(requestWeight('userRole')).toBe(60);
    expect(['meta', 'metaAndAssetCtxs', 'perpDexs', 'userFillsByTime', 'recentTrades', 'outcomeMeta'].map(requestWeight)).toEqual([20, 20, 20, 20, 20, 20]);
  });

  it('adds one per whole 20 fills or trades and one per whole 60 candles', () => {
    expect(extraWeight('userFillsByTime', 2_000)).toBe(100);
    expect(extraWeight('userFills', 39)).toBe(1);
    expect(extraWeight('recentTrades', 10)).toBe(0);
    expect(extraWeight('candleSnapshot', 120)).toBe(2);
    expect(extraWeight('meta', 500)).toBe(0);
  });

  it('treats the reads whose weight grows with the response as history', () => {
    expect(['recentTrades', 'userFillsByTime', 'userFunding', 'candleSnapshot'].every(isHistoryType)).toBe(true);
    expect(['clearinghouseState', 'spotClearinghouseState', 'allMids', 'meta', 'outcomeMeta'].some(isHistoryType)).toBe(false);
  });
});
