import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig, loadAppConfig } from '../../src/config/app.config';
import { MemoryKvStore } from '../../src/infra/kv/memory-kv.store';
import { CoingeckoRwa } from '../../src/modules/stocks/providers/coingecko-rwa';
import { CoingeckoClient } from '../../src/providers/coingecko/coingecko.client';
import { MAX_MARKETS_PER_PAGE } from '../../src/providers/coingecko/coingecko.types';
import { RwaMarket } from '../../src/providers/rwa-provider';
import { YahooFinanceClient } from '../../src/providers/yahoo/yahoo-finance.client';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator.server';

/** Wednesday 2026-09-23 15:00:00.500 UTC: US stock and COMEX sessions open, inside a price step. */
const T0 = Date.UTC(2026, 8, 23, 15, 0, 0, 500);

/**
 * The RWA provider through the real CoinGecko client against the simulator, configured by the lines
 * `--print-env` prints: tokenized stocks, ETFs and gold come with their tokens, the tokens are coins of the
 * crypto ranking at the same prices, and gold's tokens trade at about the price of gold per ounce.
 */
describe('CoinGecko RWA provider against the upstream simulator', () => {
  let sim: RunningSimulator;
  let config: ConfigService<AppConfig, true>;
  let markets: RwaMarket[];
  const kv = new MemoryKvStore();

  beforeAll(async () => {
    // The clock is pinned so the CoinGecko and Yahoo answers describe one instant.
    sim = await startSimulator({ port: 0, wallets: 20, clock: () => T0 });
    config = new ConfigService<AppConfig, true>(loadAppConfig({ ...sim.env, COINGECKO_API_KEY: 'sim-demo-key' }) as unknown as Record<string, unknown>);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    markets = await new CoingeckoRwa(new CoingeckoClient(config, kv)).listRwaMarkets({});
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await kv.close();
    await sim.close();
  });

  it('lists stocks, ETFs and gold, largest token market cap first, each with its tokens', () => {
    expect(new Set(markets.map((market) => market.assetType))).toEqual(new Set(['stock', 'etf', 'commodity']));
    expect(markets.length).toBeGreaterThanOrEqual(10);
    const caps = markets.map((market) => Number(market.tokenMarketCap));
    expect(caps).toEqual([...caps].sort((a, b) => b - a));
    expect(markets.every((market) => market.tokens.length >= 2)).toBe(true);
    expect(markets.find((market) => market.symbol === 'TSLA')).toMatchObject({
      id: 'tesla',
      slug: 'tesla',
      assetType: 'stock',
      tokens: expect.arrayContaining([{ coinId: 'tesla-xstock', name: 'Tesla xStock', symbol: 'TSLAX' }]),
    });
    expect(
      markets
        .find((market) => market.symbol === 'XAU')
        ?.tokens.map((token) => token.symbol)
        .sort(),
    ).toEqual(['PAXG', 'XAUT']);
    expect(markets.every((market) => /^\d+(\.\d+)?$/.test(market.tokenPrice ?? '') && market.updatedAt === new Date(T0).toISOString())).toBe(true);
  });

  it('lists every token as a coin of the crypto ranking, its price among the RWA token prices', async () => {
    const coingecko = new CoingeckoClient(config, kv);
    const ranking = [
      ...(await coingecko.coinsMarkets({ page: 1, perPage: MAX_MARKETS_PER_PAGE })),
      ...(await coingecko.coinsMarkets({ page: 2, perPage: MAX_MARKETS_PER_PAGE })),
    ];
    const byId = new Map(ranking.map((quote) => [quote.sourceId, quote]));
    for (const market of markets) {
      const prices = market.tokens.map((token) => Number(byId.get(token.coinId)?.price));
      expect(prices.every(Number.isFinite)).toBe(true);
      // The RWA price is a volume-weighted mean of its tokens' prices, so it lies between them (up to rounding).
      expect(Number(market.tokenPrice)).toBeGreaterThanOrEqual(Math.min(...prices) * 0.99999);
      expect(Number(market.tokenPrice)).toBeLessThanOrEqual(Math.max(...prices) * 1.00001);
    }
    expect(byId.get('bitcoin')).toMatchObject({ symbol: 'BTC' });
  });

  it("prices gold's tokens within a few percent of the gold future per ounce", async () => {
    const [future] = await new YahooFinanceClient(config, kv).quote({ symbols: ['GC=F'] });
    const gold = markets.find((market) => market.id === 'gold');
    const premium = Number(gold?.tokenPrice) / Number(future.price) - 1;
    expect(premium).toBeGreaterThan(0);
    expect(premium).toBeLessThan(0.02);
  });
});
