import { ConfigService } from '@nestjs/config';
import { AppConfig, loadAppConfig } from '../../src/config/app.config';
import { MemoryKvStore } from '../../src/infra/kv/memory-kv.store';
import { BinanceKlinesClient, BinanceUnknownSymbolError } from '../../src/providers/binance/binance-klines.client';
import { CoingeckoClient } from '../../src/providers/coingecko/coingecko.client';
import { YahooFinanceClient } from '../../src/providers/yahoo/yahoo-finance.client';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator.server';

/**
 * The market-data clients against the upstream simulator, configured by exactly the lines `--print-env`
 * prints: the wire protocols agree end to end (paths, query, key header, the Yahoo cookie and crumb), and
 * the one world gives BTC one price on every vendor.
 */
describe('market-data clients against the upstream simulator', () => {
  let sim: RunningSimulator;
  let config: ConfigService<AppConfig, true>;
  const kv = new MemoryKvStore();

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, wallets: 20 });
    config = new ConfigService<AppConfig, true>(loadAppConfig({ ...sim.env, COINGECKO_API_KEY: 'sim-demo-key' }) as unknown as Record<string, unknown>);
  });
  afterAll(async () => {
    await kv.close();
    await sim.close();
  });

  it('reads the CoinGecko ranking, Binance klines and the Yahoo quote and chart, with BTC at one price', async () => {
    const coingecko = new CoingeckoClient(config, kv);
    const binance = new BinanceKlinesClient(config, kv);
    const yahoo = new YahooFinanceClient(config, kv);

    const [ranking, klines, quotes, chart] = await Promise.all([
      coingecko.coinsMarkets({ page: 1, perPage: 50 }),
      binance.klines({ symbol: 'BTCUSDT', interval: '1h', limit: 24 }),
      yahoo.quote({ symbols: ['AAPL', 'EURUSD=X'] }),
      yahoo.chart({ symbol: 'AAPL', interval: '1d', range: '1mo' }),
    ]);

    const btc = ranking.find((q) => q.sourceId === 'bitcoin');
    expect(btc).toMatchObject({ symbol: 'BTC', type: 'CRYPTO' });
    expect(btc!.sparkline7d.length).toBeGreaterThan(100);
    expect(klines).toHaveLength(24);
    expect(klines.map((k) => k.openTime)).toEqual([...klines.map((k) => k.openTime)].sort());
    const lastClose = Number(klines[klines.length - 1].close);
    expect(Math.abs(lastClose - Number(btc!.price)) / Number(btc!.price)).toBeLessThan(0.01);
    expect(quotes.map((q) => q.symbol).sort()).toEqual(['AAPL', 'EURUSD=X']);
    expect(chart.length).toBeGreaterThan(10);
    expect(chart.every((c) => /^\d+(\.\d+)?$/.test(c.close))).toBe(true);
  });

  it('tells an unknown Binance pair apart from an outage, so klines can fall back to CoinGecko', async () => {
    const binance = new BinanceKlinesClient(config, kv);
    await expect(binance.klines({ symbol: 'NOSUCHUSDT', interval: '1d', limit: 5 })).rejects.toBeInstanceOf(BinanceUnknownSymbolError);
    expect(await binance.hasPair('BTCUSDT')).toBe(true);
  });
});
