import { UpstreamError } from '../kit/upstream.error';
import { stockMarketOf, toMarketQuote, toStockQuote } from './yahoo-quote.mapping';
import { parseQuoteResponse } from './yahoo-quote.schema';
import { CrumbRejectedError } from './yahoo-values';
import { vendorFixture } from '../../../test/support/vendor-fixtures';

/** The recorded Yahoo bodies, in shared/ beside the repository. */
const fixture = (name: string): any => vendorFixture('yahoo', name);
const onlyQuote = (name: string) => parseQuoteResponse(fixture(name))[0];

describe(parseQuoteResponse.name, () => {
  it('reads a US equity (AAPL) as a STOCK in the US market', () => {
    const quote = onlyQuote('quote.AAPL.json');
    expect(quote).toEqual({
      symbol: 'AAPL',
      quoteType: 'EQUITY',
      name: 'Apple Inc.',
      currency: 'USD',
      exchange: 'NasdaqGS',
      marketState: 'CLOSED',
      price: '244.6',
      change: '3.0700073',
      changePercent: '1.2710667',
      previousClose: '241.53',
      dayHigh: '245.41',
      dayLow: '241',
      volume: '40896227',
      marketCap: '3674405863424',
      priceUpdatedAt: '2025-02-14T21:00:00.000Z',
    });
    expect(toMarketQuote(quote)).toMatchObject({ sourceId: 'AAPL', type: 'STOCK', market: 'US', change24h: '1.2710667', volume24h: '40896227' });
    expect(toStockQuote(quote)).toMatchObject({ sourceSymbol: 'AAPL', market: 'US', currency: 'USD', change: '3.0700073', sector: null });
  });

  it('reads an ETF (QQQ) as ETF, which is not a stock quote', () => {
    const quote = onlyQuote('quote.QQQ.json');
    expect(toMarketQuote(quote)).toMatchObject({
      type: 'ETF',
      name: 'Invesco QQQ Trust',
      market: 'US',
      price: '538.15',
      high24h: '538.84',
      low24h: '535.67',
      marketCap: '211546767360',
    });
    expect(toStockQuote(quote)).toBeNull();
  });

  it('reads a currency (EURUSD=X) as FOREX with no market cap, no market and no volume (Yahoo says 0)', () => {
    const quote = onlyQuote('quote.EURUSD=X.json');
    expect(toMarketQuote(quote)).toEqual({
      sourceId: 'EURUSD=X',
      currency: 'USD',
      symbol: 'EURUSD=X',
      name: 'EUR/USD',
      type: 'FOREX',
      market: null,
      price: '1.0489877',
      change1h: null,
      change24h: '-0.052457344',
      change7d: null,
      volume24h: null,
      marketCap: null,
      high24h: '1.0508617',
      low24h: '1.0474495',
      sparkline7d: [],
      updatedAt: '2025-02-17T10:54:43.000Z',
    });
  });

  it('reads a future (GC=F) as COMMODITY, named by its short name', () => {
    const quote = onlyQuote('quote.GC=F.json');
    expect(toMarketQuote(quote)).toMatchObject({
      type: 'COMMODITY',
      name: 'Gold Apr 25',
      price: '2910.3',
      marketCap: null,
      volume24h: '54706',
      high24h: '2919',
    });
    expect(quote.exchange).toBe('COMEX');
  });

  it('parses a crypto quote but leaves it out of Markets', () => {
    const quote = onlyQuote('quote.BTC-USD.json');
    expect(quote.quoteType).toBe('CRYPTOCURRENCY');
    expect(toMarketQuote(quote)).toBeNull();
  });

  it('unwraps {raw, fmt}, treats {} and null as no figure, and ignores unknown keys', () => {
    const body = {
      quoteResponse: {
        result: [
          {
            symbol: '0700.HK',
            quoteType: 'EQUITY',
            currency: 'HKD',
            shortName: 'TENCENT',
            regularMarketPrice: { raw: 438.4, fmt: '438.40' },
            marketCap: {},
            regularMarketVolume: null,
            regularMarketChangePercent: 1e-7,
            somethingNew: { nested: [1, 2] },
          },
        ],
        error: null,
      },
    };
    const [quote] = parseQuoteResponse(body);
    expect(quote).toMatchObject({ price: '438.4', marketCap: null, volume: null, changePercent: '0.0000001', dayHigh: null, priceUpdatedAt: null });
    expect(toStockQuote(quote)).toMatchObject({ market: 'HK', currency: 'HKD', name: 'TENCENT' });
  });

  it('gives no quotes for an empty result', () => {
    expect(parseQuoteResponse({ quoteResponse: { result: [], error: null } })).toEqual([]);
  });

  it('turns "Invalid Crumb" in the body into a crumb rejection', () => {
    const body = { finance: { result: null, error: { code: 'Unauthorized', description: 'Invalid Crumb' } } };
    expect(() => parseQuoteResponse(body)).toThrow(CrumbRejectedError);
  });

  it('refuses a body that is not a quote response, as a shape error', () => {
    expect(() => parseQuoteResponse('<html>')).toThrow(UpstreamError);
    expect(() => parseQuoteResponse({ quoteResponse: { result: [{ price: 1 }] } })).toThrow('quote.quoteResponse.result[0].symbol');
  });
});

describe(stockMarketOf.name, () => {
  it.each([
    ['AAPL', 'US'],
    ['BRK-B', 'US'],
    ['0700.HK', 'HK'],
    ['7203.T', 'JP'],
    ['005930.KS', 'KR'],
    ['035720.KQ', 'KR'],
    ['VOD.L', null],
  ])('%s trades in %s', (symbol, market) => {
    expect(stockMarketOf(symbol)).toBe(market);
  });
});
