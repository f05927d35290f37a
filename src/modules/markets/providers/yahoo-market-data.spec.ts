import { SparkSeries } from '../../../providers/yahoo/yahoo-chart.schema';
import { YahooFinanceClient } from '../../../providers/yahoo/yahoo-finance.client';
import { YahooQuote } from '../../../providers/yahoo/yahoo-quote.schema';
import { MarketDataUnsupportedError } from './market-data-unsupported.error';
import { rangeFor, YahooMarketData } from './yahoo-market-data';

const HOUR_MS = 3_600_000;

function yahooQuote(symbol: string, quoteType: string, price: string): YahooQuote {
  return {
    symbol,
    quoteType,
    name: symbol,
    currency: 'USD',
    exchange: null,
    marketState: null,
    price,
    change: null,
    changePercent: '1',
    previousClose: null,
    dayHigh: null,
    dayLow: null,
    volume: '0',
    marketCap: null,
    priceUpdatedAt: null,
  };
}

function hourlySpark(symbol: string, closes: string[], lastAt: number, previousClose: string): SparkSeries {
  return { symbol, previousClose, closes: closes.map((close, k) => ({ at: new Date(lastAt - (closes.length - 1 - k) * HOUR_MS).toISOString(), close })) };
}

describe(YahooMarketData.name, () => {
  let yahoo: jest.Mocked<Pick<YahooFinanceClient, 'quote' | 'spark' | 'chart'>>;
  let sut: YahooMarketData;

  beforeEach(() => {
    yahoo = { quote: jest.fn(), spark: jest.fn(), chart: jest.fn() };
    sut = new YahooMarketData(yahoo as unknown as YahooFinanceClient);
  });

  it('adds the sparkline, the 7-day change and, while trading, the 1-hour change', async () => {
    yahoo.quote.mockResolvedValue([yahooQuote('AAPL', 'EQUITY', '110'), yahooQuote('GC=F', 'FUTURE', '2000'), yahooQuote('BTC-USD', 'CRYPTOCURRENCY', '1')]);
    yahoo.spark.mockResolvedValue([
      hourlySpark('AAPL', ['100', '108', '110'], Date.now() - 10 * 60_000, '100'),
      hourlySpark('GC=F', ['1990', '2000'], Date.now() - 5 * HOUR_MS, '2100'),
    ]);
    const [aapl, gold, ...rest] = await sut.getQuotes({ sourceIds: ['AAPL', 'GC=F', 'BTC-USD'] });
    expect(rest).toEqual([]);
    expect(yahoo.spark).toHaveBeenCalledWith(expect.objectContaining({ interval: '1h', range: '5d' }));
    expect(aapl).toMatchObject({ type: 'STOCK', sparkline7d: ['100', '108', '110'], change7d: '10', change1h: '1.85185185' });
    expect(gold).toMatchObject({ type: 'COMMODITY', change7d: '-4.76190476', change1h: null });
  });

  it('keeps the last `limit` bars of a range long enough for them', async () => {
    yahoo.chart.mockResolvedValue(
      Array.from({ length: 40 }, (_, k) => ({ openTime: new Date(k * HOUR_MS).toISOString(), open: '1', high: '1', low: '1', close: String(k), volume: '0' })),
    );
    const candles = await sut.getCandles({ sourceId: 'AAPL', interval: 'H1', limit: 30 });
    expect(yahoo.chart).toHaveBeenCalledWith({ symbol: 'AAPL', interval: '1h', range: '1mo', signal: undefined });
    expect(candles).toHaveLength(30);
    expect(candles[29].close).toBe('39');
  });

  it("gives currency pairs' bars no volume (Yahoo's 0 means none is known), other bars theirs", async () => {
    yahoo.chart.mockResolvedValue([{ openTime: new Date(0).toISOString(), open: '1', high: '1', low: '1', close: '1', volume: '0' }]);
    const [fx] = await sut.getCandles({ sourceId: 'EURUSD=X', interval: 'D1', limit: 1 });
    const [stock] = await sut.getCandles({ sourceId: 'AAPL', interval: 'D1', limit: 1 });
    expect([fx.volume, stock.volume]).toEqual([null, '0']);
  });

  it('has no venue tickers and no catalogue', async () => {
    expect(await sut.getTickers()).toEqual([]);
    await expect(sut.listCatalogue()).rejects.toBeInstanceOf(MarketDataUnsupportedError);
    await expect(sut.getGlobalStats()).rejects.toBeInstanceOf(MarketDataUnsupportedError);
  });
});

describe(rangeFor.name, () => {
  it.each([
    ['H1', 25, '5d'],
    ['H1', 26, '1mo'],
    ['H1', 500, '6mo'],
    ['D1', 5, '5d'],
    ['D1', 100, '6mo'],
    ['D1', 500, '5y'],
  ] as const)('%s × %i → %s', (interval, limit, range) => {
    expect(rangeFor(interval, limit)).toBe(range);
  });
});
