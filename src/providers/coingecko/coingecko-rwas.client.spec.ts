import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AppConfig } from '../../config/app.config';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { UpstreamError } from '../kit/upstream.error';
import { CoingeckoClient } from './coingecko.client';
import { ScriptedUpstream, StubReply } from '../../../test/support/scripted-upstream';

const API_KEY = 'CG-test-key-do-not-log';
/** Bodies written from the SDK types, no recorded ones existing (test/fixtures-derived/coingecko/README.md). */
const derivedText = (name: string): string => readFileSync(resolve(__dirname, '../../../test/fixtures-derived/coingecko', name), 'utf8');

function fixtureFor(path: string): StubReply {
  const files: Record<string, string> = {
    '/api/v3/rwas/markets': 'rwas-markets.asset_type-commodity.sdk-derived.json',
    '/api/v3/rwas/gold': 'rwas-id.gold.tokens-true.sdk-derived.json',
  };
  return files[path] ? { body: derivedText(files[path]) } : { status: 404, body: '{"error":"rwa not found"}' };
}

describe(`${CoingeckoClient.name} RWA calls`, () => {
  const upstream = new ScriptedUpstream(fixtureFor);
  let kv: MemoryKvStore;
  let warn: jest.SpyInstance;

  beforeAll(() => upstream.start());
  afterAll(() => upstream.stop());

  beforeEach(() => {
    upstream.reset();
    kv = new MemoryKvStore();
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => warn.mockRestore());

  function makeClient(plan: 'demo' | 'pro' = 'demo'): CoingeckoClient {
    const marketVendors = {
      coingecko: { plan, apiKey: API_KEY, apiUrl: `${upstream.baseUrl}/api/v3`, callsPerMinute: 25 },
      timeoutMs: 5_000,
      maxRetries: 0,
    } as AppConfig['marketVendors'];
    const config = { get: (key: string) => (key === 'marketVendors' ? marketVendors : undefined) } as unknown as ConfigService<AppConfig, true>;
    return new CoingeckoClient(config, kv);
  }

  it('asks one asset type of rwas/markets by market cap with the 24 h change, in the plan key header', async () => {
    const rows = await makeClient().rwasMarkets({ assetType: 'commodity', page: 2, perPage: 250 });
    expect(upstream.received).toEqual([
      {
        path: '/api/v3/rwas/markets',
        query: { asset_type: 'commodity', order: 'market_cap_desc', per_page: '250', page: '2', price_change_percentage: '24h' },
        headers: expect.objectContaining({ 'x-cg-demo-api-key': API_KEY }),
      },
    ]);
    expect(rows.map((row) => [row.id, row.symbol, row.tokenPrice])).toEqual([
      ['gold', 'XAU', '4168.52'],
      ['silver', 'XAG', '54.11'],
    ]);
  });

  it('asks an RWA with its tokens but without the market data the list already gave', async () => {
    const detail = await makeClient('pro').rwa('gold');
    expect(upstream.received[0]).toMatchObject({ path: '/api/v3/rwas/gold', query: { tokens: 'true', tokenized_market_data: 'false' } });
    expect(upstream.received[0].headers['x-cg-pro-api-key']).toBe(API_KEY);
    expect(detail.tokens.map((token) => token.coinId)).toEqual(['tether-gold', 'pax-gold']);
  });

  it('refuses pages CoinGecko would not serve and blank ids without calling', async () => {
    const sut = makeClient();
    await expect(sut.rwasMarkets({ assetType: 'stock', page: 1, perPage: 251 })).rejects.toThrow('perPage: expected an integer from 1 to 250, got 251');
    await expect(sut.rwasMarkets({ assetType: 'stock', page: 0, perPage: 10 })).rejects.toThrow(RangeError);
    await expect(sut.rwa(' ')).rejects.toThrow(RangeError);
    expect(upstream.received).toHaveLength(0);
  });

  it('throws a shape error for a body of the wrong shape, and an http error for an unknown RWA', async () => {
    const sut = makeClient();
    upstream.queued.push({ body: derivedText('rwas-id.gold.tokens-true.sdk-derived.json') });
    await expect(sut.rwasMarkets({ assetType: 'commodity', page: 1, perPage: 100 })).rejects.toMatchObject({
      kind: 'shape',
      message: 'coingecko: rwas/markets: expected array, got object',
    });
    const missing = await sut.rwa('no-such-rwa').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(UpstreamError);
    expect(missing).toMatchObject({ kind: 'http', upstreamStatus: 404 });
  });
});
