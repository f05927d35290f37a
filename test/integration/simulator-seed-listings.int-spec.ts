import { SEED_LISTS } from '../../src/modules/markets/seed/seed-universe';
import { YAHOO_QUOTE_BATCH, YAHOO_SPARK_BATCH } from '../../src/providers/yahoo/yahoo-finance.client';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator.server';
import { LISTINGS } from '../../src/simulator/world/stock-listings';

const SEED = 11;
/** Wednesday 2026-09-23 15:00:00.500 UTC: US and FX open, Asia closed since the morning. */
const T0 = Date.UTC(2026, 8, 23, 15, 0, 0, 500);
const SEED_ENTRIES = SEED_LISTS.flat();
/** Seeded assets no named listing covers: their listings are derived from the seed entry and the world seed. */
const DERIVED = SEED_ENTRIES.filter((entry) => !LISTINGS.some((listing) => listing.symbol === entry.yahooSymbol));
const QUOTE_TYPE_OF_SEED: Record<string, string> = { STOCK: 'EQUITY', ETF: 'ETF', FOREX: 'CURRENCY', COMMODITY: 'FUTURE' };

function chunks<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, k) => items.slice(k * size, (k + 1) * size));
}

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; json: any; text: string }> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return { status: res.status, json: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined, text };
}

/** Quote results for the symbols, after the cookie + crumb handshake the service's client performs. */
async function quotes(sim: RunningSimulator, symbols: readonly string[]): Promise<any[]> {
  const page = await fetch(sim.env.YAHOO_COOKIE_URL);
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
  const crumb = await get(`${sim.env.YAHOO_QUERY_URL}/v1/test/getcrumb`, { cookie });
  expect(crumb.status).toBe(200);
  const res = await get(`${sim.env.YAHOO_QUERY_URL}/v7/finance/quote?symbols=${encodeURIComponent(symbols.join(','))}&crumb=${crumb.text}`, { cookie });
  expect(res.status).toBe(200);
  return res.json.quoteResponse.result;
}

describe('simulator Yahoo listings for every asset the Markets catalogue seeds', () => {
  let sut: RunningSimulator;
  let twin: RunningSimulator;
  let other: RunningSimulator;
  const clock = () => T0;
  const offLimits = { weightPerMinute: 0, coingeckoCallsPerMinute: 0, binanceWeightPerMinute: 0, yahooCallsPerMinute: 0 };

  beforeAll(async () => {
    sut = await startSimulator({ wallets: 20, seed: SEED, clock, ...offLimits });
    twin = await startSimulator({ wallets: 20, seed: SEED, clock, ...offLimits });
    other = await startSimulator({ wallets: 20, seed: SEED + 1, clock, ...offLimits });
  });
  afterAll(async () => {
    await sut?.close();
    await twin?.close();
    await other?.close();
  });

  it(`quotes each seed symbol, ${YAHOO_QUOTE_BATCH} a call, with a price, the seed's currency and quote type, and a market cap`, async () => {
    expect(DERIVED.length).toBeGreaterThan(200);
    for (const batch of chunks(SEED_ENTRIES, YAHOO_QUOTE_BATCH)) {
      const results = await quotes(
        sut,
        batch.map((entry) => entry.yahooSymbol),
      );
      expect(results.map((quote) => quote.symbol)).toEqual(batch.map((entry) => entry.yahooSymbol));
      for (const [k, entry] of batch.entries()) {
        const quote = results[k];
        const expected = { symbol: entry.yahooSymbol, currency: entry.currency, quoteType: QUOTE_TYPE_OF_SEED[entry.type] };
        expect({ symbol: quote.symbol, currency: quote.currency, quoteType: quote.quoteType }).toEqual(expected);
        expect(quote.regularMarketPrice).toBeGreaterThan(0);
        if (entry.type === 'STOCK' || entry.type === 'ETF') expect(quote.marketCap).toBeGreaterThan(0);
      }
    }
  });

  it(`sparks each seed symbol, ${YAHOO_SPARK_BATCH} a call, as the Markets job asks (1h bars over 5 days)`, async () => {
    for (const batch of chunks(SEED_ENTRIES, YAHOO_SPARK_BATCH)) {
      const symbols = batch.map((entry) => entry.yahooSymbol);
      const res = await get(`${sut.env.YAHOO_QUERY_URL}/v7/finance/spark?symbols=${encodeURIComponent(symbols.join(','))}&interval=1h&range=5d`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.json).sort()).toEqual([...symbols].sort());
      for (const symbol of symbols) {
        expect(res.json[symbol].close.length).toBeGreaterThan(0);
        expect(res.json[symbol].close.every((close: number) => close > 0)).toBe(true);
      }
    }
  });

  it('leaves unknown symbols out of quote and spark, as upstream', async () => {
    const symbols = ['NOPE', DERIVED[0].yahooSymbol, 'NOPE.HK'];
    expect((await quotes(sut, symbols)).map((quote) => quote.symbol)).toEqual([DERIVED[0].yahooSymbol]);
    const spark = await get(`${sut.env.YAHOO_QUERY_URL}/v7/finance/spark?symbols=${encodeURIComponent(symbols.join(','))}&interval=1h&range=5d`);
    expect(Object.keys(spark.json)).toEqual([DERIVED[0].yahooSymbol]);
  });

  it('prices a derived listing alike for the same seed and differently for another', async () => {
    const symbols = ['STOCK', 'ETF', 'FOREX', 'COMMODITY'].map((type) => DERIVED.find((entry) => entry.type === type)?.yahooSymbol ?? type);
    const prices = async (sim: RunningSimulator) => (await quotes(sim, symbols)).map((quote) => quote.regularMarketPrice);
    const mine = await prices(sut);
    expect(mine).toHaveLength(symbols.length);
    expect(await prices(twin)).toEqual(mine);
    expect(await prices(other)).not.toEqual(mine);
  });
});
