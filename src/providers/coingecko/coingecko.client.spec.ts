import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { UpstreamError } from '../kit/upstream.error';
import { CoingeckoClient, keyHeader } from './coingecko.client';
import { vendorFixtureText } from '../../../test/support/vendor-fixtures';
import { ScriptedUpstream, StubReply } from '../../../test/support/scripted-upstream';

const fixtureText = (name: string): string => vendorFixtureText('coingecko', name);
const API_KEY = 'CG-test-key-do-not-log';

/** Answers each CoinGecko path with its recorded body. */
function fixtureFor(path: string): StubReply {
  const files: Record<string, string> = {
    '/api/v3/coins/markets': 'coins-markets.category-analytics.pct-1h-24h-7d.2022.json',
    '/api/v3/coins/bitcoin': 'coins-bitcoin.2021.json',
    '/api/v3/coins/bitcoin/tickers': 'coins-bitcoin-tickers.2021.json',
    '/api/v3/coins/bitcoin/ohlc': 'coins-bitcoin-ohlc.days-7.2021.json',
    '/api/v3/derivatives': 'derivatives.excerpt-first-60.2021.json',
    '/api/v3/global': 'global.2025.json',
  };
  return files[path] ? { body: fixtureText(files[path]) } : { status: 404, body: '{"error":"Not Found"}' };
}

describe(CoingeckoClient.name, () => {
  const upstream = new ScriptedUpstream(fixtureFor);
  let kv: MemoryKvStore;
  let warn: jest.SpyInstance;
  let debug: jest.SpyInstance;

  beforeAll(() => upstream.start());
  afterAll(() => upstream.stop());

  beforeEach(() => {
    upstream.reset();
    kv = new MemoryKvStore();
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    debug = jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
  });

  afterEach(() => {
    warn.mockRestore();
    debug.mockRestore();
  });

  function makeClient({ plan = 'demo', apiKey = API_KEY, maxRetries = 0 }: { plan?: 'demo' | 'pro'; apiKey?: string; maxRetries?: number } = {}) {
    const marketVendors = {
      coingecko: { plan, apiKey, apiUrl: `${upstream.baseUrl}/api/v3`, callsPerMinute: 25 },
      timeoutMs: 5_000,
      maxRetries,
    } as AppConfig['marketVendors'];
    const config = { get: (key: string) => (key === 'marketVendors' ? marketVendors : undefined) } as unknown as ConfigService<AppConfig, true>;
    return new CoingeckoClient(config, kv);
  }

  async function callsSpent(sut: CoingeckoClient): Promise<number> {
    const now = Date.now();
    const values = await Promise.all([sut.budget.windowKey(now), sut.budget.windowKey(now - 60_000)].map((key) => kv.get(key)));
    return values.reduce((sum, value) => sum + Number(value ?? 0), 0);
  }

  it('asks coins/markets in USD by market cap with the sparkline and the three changes', async () => {
    const sut = makeClient();
    const quotes = await sut.coinsMarkets({ page: 2, perPage: 250 });
    expect(upstream.received).toEqual([
      {
        path: '/api/v3/coins/markets',
        query: {
          vs_currency: 'usd',
          order: 'market_cap_desc',
          per_page: '250',
          page: '2',
          sparkline: 'true',
          price_change_percentage: '1h,24h,7d',
        },
        headers: expect.objectContaining({ 'x-cg-demo-api-key': API_KEY }),
      },
    ]);
    expect(quotes).toHaveLength(16);
    expect(await callsSpent(sut)).toBe(1);
  });

  it('asks only the given ids, and refuses more ids than fit the page without calling', async () => {
    const sut = makeClient();
    await sut.coinsMarkets({ page: 1, perPage: 2, ids: ['bitcoin', 'ethereum'] });
    expect(upstream.received[0].query.ids).toBe('bitcoin,ethereum');
    await expect(sut.coinsMarkets({ page: 1, perPage: 1, ids: ['bitcoin', 'ethereum'] })).rejects.toThrow(RangeError);
    await expect(sut.coinsMarkets({ page: 1, perPage: 251 })).rejects.toThrow('perPage: expected an integer from 1 to 250, got 251');
    await expect(sut.coinTickers(' ')).rejects.toThrow(RangeError);
    await expect(sut.ohlc('bitcoin', 2 as 1)).rejects.toThrow('days: expected one of 1, 7, 14, 30, 90, 180, 365, got 2');
    expect(upstream.received).toHaveLength(1);
  });

  it('sends the pro header on the pro plan, and no key header without a key', async () => {
    await makeClient({ plan: 'pro' }).global();
    await makeClient({ apiKey: '' }).global();
    expect(upstream.received[0].headers['x-cg-pro-api-key']).toBe(API_KEY);
    expect(upstream.received[0].headers['x-cg-demo-api-key']).toBeUndefined();
    expect(Object.keys(upstream.received[1].headers).filter((name) => name.startsWith('x-cg-'))).toEqual([]);
    expect(keyHeader({ plan: 'demo', apiKey: undefined })).toEqual({});
  });

  it('asks the coin detail without localization, tickers, community or developer data', async () => {
    const detail = await makeClient().coin('bitcoin');
    expect(upstream.received[0]).toMatchObject({
      path: '/api/v3/coins/bitcoin',
      query: { localization: 'false', tickers: 'false', community_data: 'false', developer_data: 'false' },
    });
    expect(detail.genesisDate).toBe('2009-01-03');
  });

  it('asks a page of tickers by volume with DEX pairs as symbols', async () => {
    const tickers = await makeClient().coinTickers('bitcoin', 3);
    expect(upstream.received[0]).toMatchObject({
      path: '/api/v3/coins/bitcoin/tickers',
      query: { order: 'volume_desc', dex_pair_format: 'symbol', page: '3' },
    });
    expect(tickers).toHaveLength(100);
  });

  it('asks derivatives, global and ohlc at their paths', async () => {
    const sut = makeClient();
    const contracts = await sut.derivatives();
    const stats = await sut.global();
    const candles = await sut.ohlc('bitcoin', 7);
    expect(upstream.requested()).toEqual([
      { path: '/api/v3/derivatives', query: {} },
      { path: '/api/v3/global', query: {} },
      { path: '/api/v3/coins/bitcoin/ohlc', query: { vs_currency: 'usd', days: '7' } },
    ]);
    expect([contracts.length, stats.markets, candles.length]).toEqual([60, 1297, 42]);
    expect(await callsSpent(sut)).toBe(3);
  });

  it('escapes a coin id in the path', async () => {
    await makeClient()
      .coin('a/b?c')
      .catch(() => undefined);
    expect(upstream.received[0].path).toBe('/api/v3/coins/a%2Fb%3Fc');
  });

  it('retries a 429 and succeeds, spending a call per attempt', async () => {
    const sut = makeClient({ maxRetries: 2 });
    upstream.queued.push({ status: 429, body: '{"status":{"error_code":429}}', headers: { 'retry-after': '0' } });
    const stats = await sut.global();
    expect(stats.totalMarketCapUsd).toBe('2515268352188.766');
    expect(upstream.received).toHaveLength(2);
    expect(await callsSpent(sut)).toBe(2);
  });

  it('turns the recorded 422 into an http UpstreamError without its body, and logs no key', async () => {
    const sut = makeClient({ maxRetries: 2 });
    upstream.queued.push({ status: 422, body: fixtureText('error-422.coins-markets-missing-vs_currency.2021.json') });
    const error = await sut.coinsMarkets({ page: 1, perPage: 10 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'http', upstreamStatus: 422, provider: 'coingecko' });
    expect((error as Error).message).not.toContain('vs_currency');
    expect(upstream.received).toHaveLength(1);
    const logged = warn.mock.calls.map((call) => String(call[0])).join('\n');
    expect(logged).toContain('coins/markets failed (http)');
    expect(logged).not.toContain(API_KEY);
  });

  it('turns a 200 carrying an error object into a shape error', async () => {
    upstream.queued.push({ body: fixtureText('error-422.coins-markets-missing-vs_currency.2021.json') });
    await expect(makeClient().coinsMarkets({ page: 1, perPage: 10 })).rejects.toMatchObject({ kind: 'shape' });
  });
});
