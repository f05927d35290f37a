import { Global, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { Test, TestingModule } from '@nestjs/testing';
import { ErrorCode } from '../../src/common/errors/error-code';
import { loadAppConfig } from '../../src/config/app.config';
import { KV_STORE } from '../../src/infra/kv/kv-store';
import { MemoryKvStore } from '../../src/infra/kv/memory-kv.store';
import { MarketDataRouter } from '../../src/modules/markets/providers/market-data-router';
import { MarketsProvidersModule } from '../../src/modules/markets/providers/markets-providers.module';
import { ProviderDisabledError } from '../../src/providers/kit/provider-disabled.error';
import { Candle, MARKET_DATA_PROVIDER } from '../../src/providers/market-data-provider';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator.server';

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;
const HOUR_MS = 3_600_000;

function expectWellFormed(candles: Candle[], intervalMs: number): void {
  const times = candles.map((candle) => Date.parse(candle.openTime));
  times.slice(1).forEach((time, k) => expect(time - times[k]).toBeGreaterThanOrEqual(intervalMs));
  for (const candle of candles) {
    for (const value of [candle.open, candle.high, candle.low, candle.close]) expect(value).toMatch(PLAIN_DECIMAL);
    expect(Number(candle.high)).toBeGreaterThanOrEqual(Math.max(Number(candle.open), Number(candle.close)));
    expect(Number(candle.low)).toBeLessThanOrEqual(Math.min(Number(candle.open), Number(candle.close)));
  }
}

/** The router as the Markets module gets it: the providers module on the simulator's settings and one KV store. */
describe('MarketDataRouter against the upstream simulator', () => {
  let sim: RunningSimulator;
  const kv = new MemoryKvStore();
  const modules: TestingModule[] = [];

  async function routerWith(settings: Record<string, string>): Promise<MarketDataRouter> {
    @Global()
    @Module({ providers: [{ provide: KV_STORE, useValue: kv }], exports: [KV_STORE] })
    class TestKvModule {}
    const moduleRef = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => loadAppConfig({ ...sim.env, ...settings })] }),
        TestKvModule,
        MarketsProvidersModule.register(),
      ],
    }).compile();
    modules.push(moduleRef);
    return moduleRef.get<MarketDataRouter>(MARKET_DATA_PROVIDER);
  }

  let sut: MarketDataRouter;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, wallets: 20 });
    sut = await routerWith({});
  });
  afterAll(async () => {
    for (const moduleRef of modules) await moduleRef.close();
    await kv.close();
    await sim.close();
  });

  it('quotes crypto by CoinGecko id, with BTC priced as its last Binance candle', async () => {
    const quotes = await sut.getQuotes({ type: 'CRYPTO', sourceIds: ['bitcoin', 'ethereum', 'fartcoin'] });
    expect(quotes.map((quote) => quote.sourceId).sort()).toEqual(['bitcoin', 'ethereum', 'fartcoin']);
    const btc = quotes.find((quote) => quote.sourceId === 'bitcoin')!;
    expect(btc).toMatchObject({ symbol: 'BTC', type: 'CRYPTO' });
    for (const value of [btc.price, btc.marketCap, btc.volume24h, ...btc.sparkline7d]) expect(value).toMatch(PLAIN_DECIMAL);

    const candles = await sut.getCandles({ type: 'CRYPTO', sourceId: 'bitcoin', interval: 'H1', limit: 48 });
    expect(candles).toHaveLength(48);
    expectWellFormed(candles, HOUR_MS);
    expect(candles.every((candle) => candle.volume !== null && PLAIN_DECIMAL.test(candle.volume))).toBe(true);
    const lastClose = Number(candles[candles.length - 1].close);
    expect(Math.abs(lastClose - Number(btc.price)) / Number(btc.price)).toBeLessThan(0.01);
  });

  it('gives daily Binance candles, and the catalogue pair when the caller knows it', async () => {
    const daily = await sut.getCandles({ type: 'CRYPTO', sourceId: 'ethereum', interval: 'D1', limit: 10, binancePair: 'ETHUSDT' });
    expect(daily).toHaveLength(10);
    expectWellFormed(daily, 24 * HOUR_MS);
    expect(daily.every((candle) => candle.openTime.endsWith('T00:00:00.000Z'))).toBe(true);
  });

  it.each([
    ['H1', HOUR_MS, 24],
    ['D1', 24 * HOUR_MS, 30],
  ] as const)('falls back to CoinGecko ohlc for a coin without a Binance pair (%s, no volume)', async (interval, intervalMs, most) => {
    const candles = await sut.getCandles({ type: 'CRYPTO', sourceId: 'fartcoin', interval, limit: 10 });
    expect(candles).toHaveLength(10);
    expectWellFormed(candles, intervalMs);
    expect(candles.every((candle) => candle.volume === null && Date.parse(candle.openTime) % intervalMs === 0)).toBe(true);
    const all = await sut.getCandles({ type: 'CRYPTO', sourceId: 'fartcoin', interval, limit: 500, binancePair: null });
    expect(all.length).toBeLessThanOrEqual(most + 1);
    expect(all.length).toBeGreaterThanOrEqual(most - 1);
  });

  it('lists spot tickers and the perpetuals on the coin index', async () => {
    const tickers = await sut.getTickers({ type: 'CRYPTO', sourceId: 'bitcoin' });
    const spot = tickers.filter((ticker) => ticker.marketType === 'spot');
    const perps = tickers.filter((ticker) => ticker.marketType === 'perp');
    expect(spot.length).toBeGreaterThan(0);
    expect(perps.length).toBeGreaterThan(0);
    expect(perps.every((ticker) => (ticker as unknown as { indexId: string }).indexId === 'BTC')).toBe(true);
    expect(tickers.every((ticker) => PLAIN_DECIMAL.test(ticker.price))).toBe(true);
  });

  it('gives the global crypto stats', async () => {
    const stats = await sut.getGlobalStats({});
    expect(stats.totalMarketCapUsd).toMatch(PLAIN_DECIMAL);
    expect(Number(stats.btcDominance)).toBeGreaterThan(0);
    expect(Number(stats.btcDominance)).toBeLessThan(100);
  });

  it('quotes stocks and FX from Yahoo with a sparkline and a 7-day change', async () => {
    const quotes = await sut.getQuotes({ type: 'STOCK', sourceIds: ['AAPL', 'EURUSD=X'] });
    const bySymbol = new Map(quotes.map((quote) => [quote.sourceId, quote]));
    expect(bySymbol.get('AAPL')).toMatchObject({ type: 'STOCK', market: 'US' });
    expect(bySymbol.get('EURUSD=X')).toMatchObject({ type: 'FOREX', market: null });
    for (const quote of quotes) {
      expect(quote.sparkline7d.length).toBeGreaterThan(10);
      expect(quote.sparkline7d.every((close) => PLAIN_DECIMAL.test(close))).toBe(true);
      expect(quote.change7d).toMatch(PLAIN_DECIMAL);
      expect(quote.price).toMatch(PLAIN_DECIMAL);
    }
  });

  it('gives stock and FX candles, limit respected', async () => {
    const hourly = await sut.getCandles({ type: 'STOCK', sourceId: 'AAPL', interval: 'H1', limit: 30 });
    expect(hourly).toHaveLength(30);
    expectWellFormed(hourly, HOUR_MS);
    const daily = await sut.getCandles({ type: 'FOREX', sourceId: 'EURUSD=X', interval: 'D1', limit: 15 });
    expect(daily).toHaveLength(15);
    expectWellFormed(daily, HOUR_MS);
    expect(await sut.getTickers({ type: 'STOCK', sourceId: 'AAPL' })).toEqual([]);
  });

  it('answers 503 MARKET_DATA_DISABLED for a type whose vendor is switched off', async () => {
    const router = await routerWith({ MARKET_DATA_CRYPTO_VENDOR: 'none' });
    const refused = router.getQuotes({ type: 'CRYPTO', sourceIds: ['bitcoin'] });
    await expect(refused).rejects.toBeInstanceOf(ProviderDisabledError);
    await expect(refused).rejects.toMatchObject({ code: ErrorCode.MARKET_DATA_DISABLED });
    await expect(router.getGlobalStats({})).rejects.toBeInstanceOf(ProviderDisabledError);
    expect(await router.getCandles({ type: 'STOCK', sourceId: 'AAPL', interval: 'D1', limit: 3 })).toHaveLength(3);
  });
});
