import { SEED_LISTS } from '../../src/modules/markets/seed/seed-universe';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator.server';
import { LISTINGS } from '../../src/simulator/world/stock-listings';
import { shapeDiff } from '../support/json-shape';
import { vendorFixture } from '../support/vendor-fixtures';

/** A recorded body by its path under shared/fixtures (`coingecko/global.2025.json`). */
function fixture(path: string): any {
  const [vendor, name] = path.split('/');
  return vendorFixture(vendor, name);
}

const SEED = 11;
/** Wednesday 2026-09-23 15:00:00.500 UTC: US, crypto and FX markets open, inside a price step. */
const T0 = Date.UTC(2026, 8, 23, 15, 0, 0, 500);
const MINUTE_MS = 60_000;

type Json = unknown;

/** A seeded asset of each class that no named listing covers, so its listing is derived (simulator-seed-listings covers them all). */
const DERIVED_SAMPLE = ['STOCK', 'ETF', 'FOREX', 'COMMODITY'].map(
  (type) => SEED_LISTS.flat().find((entry) => entry.type === type && !LISTINGS.some((listing) => listing.symbol === entry.yahooSymbol))?.yahooSymbol,
);

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; json: any; text: string; headers: Headers }> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, headers: res.headers };
}

describe('market simulators (CoinGecko, Binance, Yahoo) over one world', () => {
  let now = T0;
  let sut: RunningSimulator;
  let twin: RunningSimulator;
  const clock = () => now;
  const offLimits = { weightPerMinute: 0, coingeckoCallsPerMinute: 0, binanceWeightPerMinute: 0, yahooCallsPerMinute: 0 };
  const cg = (path: string) => get(`${sut.env.COINGECKO_API_URL}${path}`);
  const bn = (path: string) => get(`${sut.env.BINANCE_API_URL}${path}`);
  const yq = (path: string, headers: Record<string, string> = {}) => get(`${sut.env.YAHOO_QUERY_URL}${path}`, headers);

  /** The cookie page's A3 cookie and a crumb for it, as a client's handshake gets them. */
  async function handshake(sim: RunningSimulator): Promise<{ cookie: string; crumb: string }> {
    const page = await get(sim.env.YAHOO_COOKIE_URL);
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
    expect(cookie).toMatch(/^A3=d=/);
    const crumb = await get(`${sim.env.YAHOO_QUERY_URL}/v1/test/getcrumb`, { cookie });
    expect(crumb.status).toBe(200);
    expect(crumb.text).toMatch(/^[A-Za-z0-9]{11}$/);
    return { cookie, crumb: crumb.text };
  }

  beforeAll(async () => {
    sut = await startSimulator({ wallets: 50, seed: SEED, clock, yahooCrumbTtlMs: 10 * MINUTE_MS, ...offLimits });
    twin = await startSimulator({ wallets: 50, seed: SEED, clock, ...offLimits });
  });
  afterAll(async () => {
    await sut?.close();
    await twin?.close();
  });
  beforeEach(() => {
    now = T0;
  });

  describe('wire shapes match the recorded fixtures', () => {
    it('coins/markets with sparkline and every change window', async () => {
      const res = await cg(
        '/coins/markets?vs_currency=usd&order=market_cap_desc&per_page=250&page=1&sparkline=true&price_change_percentage=1h,24h,7d,14d,30d,200d,1y',
      );
      expect(res.status).toBe(200);
      expect(res.json).toHaveLength(250);
      expect(shapeDiff(res.json, fixture('coingecko/coins-markets.category-analytics.pct-1h-24h-7d.2022.json'), { extra: ['$[0].sparkline_in_7d'] })).toEqual(
        [],
      );
      expect(res.json[0].sparkline_in_7d.price).toHaveLength(168);
      expect(res.json.map((coin: any) => coin.market_cap_rank)).toEqual(Array.from({ length: 250 }, (_, k) => k + 1));
    });

    it('coins/markets without options is the plain item', async () => {
      const res = await cg('/coins/markets?vs_currency=usd&ids=bitcoin');
      expect(shapeDiff(res.json, fixture('coingecko/coins-markets.ids-bitcoin.2021.json'))).toEqual([]);
    });

    it('coins/{id}, its tickers and OHLC', async () => {
      const currencyMaps = /^\$\.market_data\.[a-z0-9_]+$|^\$\.(localization|description)$/;
      const detail = await cg('/coins/bitcoin');
      // Only tickers quoted in a coin (USDT, BTC) carry target_coin_id; the recorded first ticker is quoted in USD.
      const extra = ['$.tickers[0].target_coin_id'];
      expect(shapeDiff(detail.json, fixture('coingecko/coins-bitcoin.2021.json'), { currencyMaps, extra })).toEqual([]);
      const tickers = await cg('/coins/bitcoin/tickers?order=volume_desc&page=1');
      expect(shapeDiff(tickers.json, fixture('coingecko/coins-bitcoin-tickers.2021.json'))).toEqual([]);
      const ohlc = await cg('/coins/bitcoin/ohlc?vs_currency=usd&days=7');
      expect(shapeDiff(ohlc.json, fixture('coingecko/coins-bitcoin-ohlc.days-7.2021.json'))).toEqual([]);
      expect(ohlc.json).toHaveLength(42);
    });

    it('leaves out the detail sections the query turns off', async () => {
      const res = await cg('/coins/ethereum?localization=false&tickers=false&community_data=false&developer_data=false');
      expect(Object.keys(res.json)).not.toEqual(expect.arrayContaining(['localization']));
      expect(res.json).not.toHaveProperty('tickers');
      expect(Object.keys(res.json.description)).toEqual(['en']);
      expect(res.json.market_data.current_price.usd).toBeGreaterThan(0);
    });

    it('derivatives and global', async () => {
      const derivatives = await cg('/derivatives');
      expect(shapeDiff(derivatives.json, fixture('coingecko/derivatives.excerpt-first-60.2021.json'))).toEqual([]);
      expect(derivatives.json.some((row: any) => row.market === 'Hyperliquid (Futures)')).toBe(true);
      const global = await cg('/global');
      expect(
        shapeDiff(global.json, fixture('coingecko/global.2025.json'), { currencyMaps: /^\$\.data\.(total_market_cap|total_volume|market_cap_percentage)$/ }),
      ).toEqual([]);
      expect(Object.keys(global.json.data.total_market_cap)).toEqual(Object.keys(fixture('coingecko/global.2025.json').data.total_market_cap));
    });

    it('Binance klines: numbers for times and counts, strings for prices and volumes', async () => {
      const res = await bn('/api/v3/klines?symbol=BTCUSDT&interval=1h&limit=1000');
      expect(res.status).toBe(200);
      expect(res.json).toHaveLength(1000);
      expect(shapeDiff(res.json, fixture('binance/fapi-klines.HK0700USDT.1m.limit-1.json'))).toEqual([]);
      const [first, second] = res.json;
      expect(second[0] - first[0]).toBe(3_600_000);
      expect(first[6]).toBe(first[0] + 3_599_999);
      expect((await bn('/api/v3/klines?symbol=ETHUSDT&interval=1d&limit=3')).json).toHaveLength(3);
    });

    it('Yahoo chart: hourly like 0700.HK, daily like AAPL, and nothing but meta over a weekend', async () => {
      const hourly = await yq('/v8/finance/chart/0700.HK?interval=1h&range=5d');
      expect(shapeDiff(hourly.json, fixture('yahoo/chart.0700.HK.1h.5d.json'))).toEqual([]);
      expect(hourly.json.chart.result[0].timestamp).toHaveLength(35);
      const newerMeta = ['regularMarketChangePercent', 'fulldayPrice', 'fulldayChange', 'fulldayChangePercent', 'previousClose', 'scale'];
      const daily = await yq('/v8/finance/chart/AAPL?interval=1d&range=3mo');
      expect(
        shapeDiff(daily.json, fixture('yahoo/chart.AAPL.1d.2020-08-31_2020-11-07.json'), {
          extra: newerMeta.map((key) => `$.chart.result[0].meta.${key}`),
          optional: ['$.chart.result[0].events'],
        }),
      ).toEqual([]);
      const saturday = Math.floor(Date.UTC(2026, 8, 26, 12) / 1000);
      const weekend = await yq(`/v8/finance/chart/AAPL?interval=1h&period1=${saturday}&period2=${saturday + 86_400}`);
      expect(weekend.json.chart.result[0]).not.toHaveProperty('timestamp');
      expect(weekend.json.chart.result[0].indicators).toEqual({ quote: [{}] });
    });

    it('Yahoo stock bars skip weekends; crypto trades every day', async () => {
      const stock = await yq('/v8/finance/chart/AAPL?interval=1d&range=1mo');
      const weekdays = stock.json.chart.result[0].timestamp.map((s: number) => new Date(s * 1000).getUTCDay());
      expect(weekdays).not.toContain(0);
      expect(weekdays).not.toContain(6);
      const crypto = await yq('/v8/finance/chart/BTC-USD?interval=1d&range=1mo');
      expect(crypto.json.chart.result[0].timestamp.map((s: number) => new Date(s * 1000).getUTCDay())).toContain(6);
    });

    it('Yahoo quote per type, and spark', async () => {
      const { cookie, crumb } = await handshake(sut);
      const symbols = ['AAPL', 'QQQ', 'EURUSD=X', 'GC=F', 'BTC-USD'];
      const res = await yq(`/v7/finance/quote?symbols=${encodeURIComponent(symbols.join(','))}&crumb=${crumb}`, { cookie });
      expect(res.status).toBe(200);
      const results = res.json.quoteResponse.result;
      expect(results.map((quote: any) => quote.symbol)).toEqual(symbols);
      for (const [k, symbol] of symbols.entries()) {
        const recorded = fixture(`yahoo/quote.${symbol}.json`);
        expect(shapeDiff({ quoteResponse: { result: [results[k]], error: null } }, recorded)).toEqual([]);
      }
      const spark = await yq(`/v7/finance/spark?symbols=${encodeURIComponent('0700.HK,TCEHY,HKD=X')}&range=5d&interval=1d`);
      expect(Object.keys(spark.json)).toEqual(['0700.HK', 'HKD=X']);
      expect(
        shapeDiff({ 'HKD=X': spark.json['HKD=X'], '0700.HK': spark.json['0700.HK'] }, fixture('yahoo/spark.0700.HK+TCEHY+HKD=X.json'), {
          optional: ['$.TCEHY'],
        }),
      ).toEqual([]);
    });
  });

  it('quotes BTC alike on CoinGecko, Binance, Yahoo and Hyperliquid at one instant', async () => {
    const markets = await cg('/coins/markets?vs_currency=usd&ids=bitcoin');
    const klines = await bn('/api/v3/klines?symbol=BTCUSDT&interval=1h&limit=1');
    const mids = await fetch(sut.infoUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'allMids' }) });
    const { cookie, crumb } = await handshake(sut);
    const quote = await yq(`/v7/finance/quote?symbols=BTC-USD&crumb=${crumb}`, { cookie });
    const hyperliquid = Number(((await mids.json()) as Record<string, string>).BTC);
    const prices = [markets.json[0].current_price, Number(klines.json[0][4]), quote.json.quoteResponse.result[0].regularMarketPrice];
    for (const price of prices) expect(Math.abs(price / hyperliquid - 1)).toBeLessThan(0.0001);
  });

  it('gives the same bodies for the same seed and instant', async () => {
    const paths = [
      `${sut.env.COINGECKO_API_URL}/coins/markets?vs_currency=usd&sparkline=true`,
      `${sut.env.COINGECKO_API_URL}/coins/solana`,
      `${sut.env.COINGECKO_API_URL}/global`,
      `${sut.env.BINANCE_API_URL}/api/v3/klines?symbol=SOLUSDT&interval=1h&limit=50`,
      `${sut.env.YAHOO_QUERY_URL}/v8/finance/chart/7203.T?interval=1h&range=5d`,
      `${sut.env.YAHOO_QUERY_URL}/v7/finance/spark?symbols=${encodeURIComponent(DERIVED_SAMPLE.join(','))}&interval=1h&range=5d`,
    ];
    for (const path of paths) {
      const a = await get(path);
      const b = await get(path.replace(sut.url, twin.url));
      expect(a.status).toBe(200);
      expect(b.text).toBe(a.text);
    }
    const derived = await get(paths[paths.length - 1]);
    expect(Object.keys(derived.json)).toEqual(DERIVED_SAMPLE);
  });

  describe('Yahoo cookie and crumb', () => {
    it('refuses a quote without a crumb, serves one with cookie and crumb, and refuses it once the crumb expires', async () => {
      const unauthorized = { finance: { result: null, error: { code: 'Unauthorized', description: 'Invalid Crumb' } } };
      const bare = await yq('/v7/finance/quote?symbols=AAPL');
      expect(bare.status).toBe(401);
      expect(bare.json).toEqual(unauthorized);
      const { cookie, crumb } = await handshake(sut);
      expect((await yq(`/v7/finance/quote?symbols=AAPL&crumb=${crumb}`)).status).toBe(401);
      expect((await yq(`/v7/finance/quote?symbols=AAPL&crumb=${crumb}`, { cookie })).status).toBe(200);
      now += 10 * MINUTE_MS;
      const expired = await yq(`/v7/finance/quote?symbols=AAPL&crumb=${crumb}`, { cookie });
      expect(expired.status).toBe(401);
      expect(expired.json).toEqual(unauthorized);
      const fresh = await get(`${sut.env.YAHOO_QUERY_URL}/v1/test/getcrumb`, { cookie });
      expect((await yq(`/v7/finance/quote?symbols=AAPL&crumb=${fresh.text}`, { cookie })).status).toBe(200);
    });

    it('gives no crumb without the cookie', async () => {
      expect((await yq('/v1/test/getcrumb')).status).toBe(401);
    });
  });

  describe('errors as upstream words them', () => {
    it('CoinGecko: unknown id 404, missing vs_currency 422', async () => {
      const unknown = await cg('/coins/not-a-coin');
      expect(unknown.status).toBe(404);
      expect(unknown.json).toEqual({ error: 'coin not found' });
      const missing = await cg('/coins/markets');
      expect(missing.status).toBe(422);
      expect(missing.json).toEqual(fixture('coingecko/error-422.coins-markets-missing-vs_currency.2021.json'));
    });

    it('Binance: unknown symbol 400 -1121', async () => {
      const res = await bn('/api/v3/klines?symbol=NOPEUSDT&interval=1h');
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ code: -1121, msg: 'Invalid symbol.' });
    });

    it('Yahoo: unknown chart symbol 404', async () => {
      const res = await yq('/v8/finance/chart/NOPE?interval=1d&range=5d');
      expect(res.status).toBe(404);
      expect(res.json.chart.result).toBeNull();
    });
  });

  describe('per-minute budgets', () => {
    let limited: RunningSimulator;
    beforeAll(async () => {
      limited = await startSimulator({ wallets: 20, seed: SEED, clock, coingeckoCallsPerMinute: 3, binanceWeightPerMinute: 4, yahooCallsPerMinute: 2 });
    });
    afterAll(async () => {
      await limited?.close();
    });

    it('answers 429 past each budget, with Retry-After, and serves again in the next minute', async () => {
      const cases: Array<[string, number, (res: Awaited<ReturnType<typeof get>>) => void]> = [
        [`${limited.env.COINGECKO_API_URL}/ping`, 3, (res) => expect(res.json.status.error_code).toBe(429)],
        [`${limited.env.BINANCE_API_URL}/api/v3/klines?symbol=BTCUSDT&interval=1h&limit=1`, 2, (res) => expect(res.json.code).toBe(-1003)],
        [`${limited.env.YAHOO_QUERY_URL}/v8/finance/chart/AAPL?interval=1d&range=5d`, 2, (res) => expect(res.text).toContain('Too Many Requests')],
      ];
      for (const [url, allowed, check] of cases) {
        for (let n = 0; n < allowed; n++) expect((await get(url)).status).toBe(200);
        const refused = await get(url);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        check(refused);
      }
      now += MINUTE_MS;
      for (const [url] of cases) expect((await get(url)).status).toBe(200);
    });
  });
});
