import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { UpstreamError } from '../kit/upstream.error';
import { BinanceKlinesClient, BinanceUnknownSymbolError, KLINES_WEIGHT } from './binance-klines.client';
import { vendorFixtureText } from '../../../test/support/vendor-fixtures';
import { ScriptedUpstream } from '../../../test/support/scripted-upstream';

/** Binance's answer to a symbol it does not list (its documented error payload), with HTTP 400. */
const INVALID_SYMBOL = { status: 400, body: '{"code":-1121,"msg":"Invalid symbol."}' };

describe(BinanceKlinesClient.name, () => {
  const upstream = new ScriptedUpstream(() => ({ body: vendorFixtureText('binance', 'fapi-klines.HK0700USDT.1m.limit-1.json') }));
  let kv: MemoryKvStore;
  let sut: BinanceKlinesClient;
  let logs: jest.SpyInstance[];

  beforeAll(() => upstream.start());
  afterAll(() => upstream.stop());

  beforeEach(() => {
    upstream.reset();
    kv = new MemoryKvStore();
    sut = makeClient({ maxRetries: 2 });
    logs = [jest.spyOn(Logger.prototype, 'warn'), jest.spyOn(Logger.prototype, 'debug')].map((spy) => spy.mockImplementation(() => undefined));
  });

  afterEach(() => logs.forEach((spy) => spy.mockRestore()));

  function makeClient({ maxRetries }: { maxRetries: number }): BinanceKlinesClient {
    const marketVendors = { binance: { apiUrl: upstream.baseUrl, weightPerMinute: 1000 }, timeoutMs: 5_000, maxRetries } as AppConfig['marketVendors'];
    const config = { get: (key: string) => (key === 'marketVendors' ? marketVendors : undefined) } as unknown as ConfigService<AppConfig, true>;
    return new BinanceKlinesClient(config, kv);
  }

  async function weightSpent(): Promise<number> {
    const now = Date.now();
    const values = await Promise.all([sut.budget.windowKey(now), sut.budget.windowKey(now - 60_000)].map((key) => kv.get(key)));
    return values.reduce((sum, value) => sum + Number(value ?? 0), 0);
  }

  it('asks spot klines for the symbol, interval and limit, spending weight 2', async () => {
    const candles = await sut.klines({ symbol: 'BTCUSDT', interval: '1h', limit: 500 });
    expect(upstream.requested()).toEqual([{ path: '/api/v3/klines', query: { symbol: 'BTCUSDT', interval: '1h', limit: '500' } }]);
    expect(candles).toEqual([{ openTime: '2026-07-22T07:54:00.000Z', open: '440.69', high: '441.41', low: '440.58', close: '441.41', volume: '0.35' }]);
    expect(await weightSpent()).toBe(KLINES_WEIGHT);
  });

  it('tells an unknown pair apart from an outage', async () => {
    upstream.queued.push(INVALID_SYMBOL);
    const error = await sut.klines({ symbol: 'NOSUCHUSDT', interval: '1d', limit: 10 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(BinanceUnknownSymbolError);
    expect(error).toMatchObject({ kind: 'http', upstreamStatus: 400, symbol: 'NOSUCHUSDT' });
    expect((error as Error).message).not.toContain('Invalid symbol');
    expect(upstream.received).toHaveLength(1);

    upstream.queued.push({ status: 503, body: '{}' });
    const outage = await makeClient({ maxRetries: 0 })
      .klines({ symbol: 'BTCUSDT', interval: '1d', limit: 10 })
      .catch((err: unknown) => err);
    expect(outage).toBeInstanceOf(UpstreamError);
    expect(outage).not.toBeInstanceOf(BinanceUnknownSymbolError);
  });

  it('answers hasPair from one daily bar, and throws on an outage instead of answering false', async () => {
    await expect(sut.hasPair('BTCUSDT')).resolves.toBe(true);
    expect(upstream.received[0].query).toEqual({ symbol: 'BTCUSDT', interval: '1d', limit: '1' });
    upstream.queued.push(INVALID_SYMBOL);
    await expect(sut.hasPair('NOSUCHUSDT')).resolves.toBe(false);
    upstream.queued.push({ status: 451, body: '{"code":0,"msg":"Service unavailable from a restricted location"}' });
    await expect(sut.hasPair('BTCUSDT')).rejects.toMatchObject({ kind: 'http', upstreamStatus: 451 });
  });

  it('retries a 429 and succeeds, spending weight per attempt', async () => {
    upstream.queued.push({ status: 429, body: '{"code":-1003,"msg":"Too much request weight used"}', headers: { 'retry-after': '0' } });
    await expect(sut.klines({ symbol: 'BTCUSDT', interval: '1h', limit: 1 })).resolves.toHaveLength(1);
    expect(upstream.received).toHaveLength(2);
    expect(await weightSpent()).toBe(2 * KLINES_WEIGHT);
  });

  it('refuses parameters Binance would answer 400 to, without calling', async () => {
    await expect(sut.klines({ symbol: 'btcusdt', interval: '1h', limit: 1 })).rejects.toThrow(RangeError);
    await expect(sut.klines({ symbol: 'BTCUSDT', interval: '1h', limit: 1001 })).rejects.toThrow('limit: expected 1 to 1000, got 1001');
    await expect(sut.klines({ symbol: 'BTCUSDT', interval: '4h' as '1h', limit: 1 })).rejects.toThrow(RangeError);
    expect(upstream.received).toEqual([]);
  });
});
