import { Logger } from '@nestjs/common';
import { CoingeckoClient } from '../../../providers/coingecko/coingecko.client';
import { RwaDetail, RwaMarketRow, RwasMarketsParams } from '../../../providers/coingecko/coingecko-rwas.types';
import { UpstreamError } from '../../../providers/kit/upstream.error';
import { RwaAssetType } from '../../../providers/rwa-provider';
import { CoingeckoRwa, RWA_TOKEN_LOOKUPS_PER_LIST, RWA_TOKENS_FRESH_MS } from './coingecko-rwa';

const T0 = Date.UTC(2026, 8, 23, 15);

function makeRow(id: string, assetType: RwaAssetType, tokenMarketCap: string | null): RwaMarketRow {
  return {
    id,
    name: id,
    symbol: id.slice(0, 4).toUpperCase(),
    assetType,
    tokenPrice: '100.5',
    tokenMarketCap,
    tokenVolume24h: '1000',
    tokenChange24h: '-0.5',
    updatedAt: '2026-09-23T15:00:00.000Z',
  };
}

function makeDetail(row: Pick<RwaMarketRow, 'id' | 'assetType'>): RwaDetail {
  return {
    id: row.id,
    name: row.id,
    symbol: row.id.toUpperCase(),
    slug: `${row.id}-page`,
    assetType: row.assetType,
    tokens: [{ coinId: `${row.id}-xstock`, name: `${row.id} xStock`, symbol: 'X' }],
    updatedAt: null,
  };
}

/** A CoinGecko client answering from per-type lists, 250 rows to a page as upstream. */
function fakeClient(byType: Partial<Record<RwaAssetType, RwaMarketRow[]>>) {
  const rwasMarkets = jest.fn(async ({ assetType, page, perPage }: RwasMarketsParams) => (byType[assetType] ?? []).slice((page - 1) * perPage, page * perPage));
  const rwa = jest.fn(async (id: string) => {
    const row = Object.values(byType)
      .flat()
      .find((candidate) => candidate.id === id);
    if (!row) throw new UpstreamError({ provider: 'coingecko', kind: 'http', upstreamStatus: 404, message: 'rwas/id: HTTP 404' });
    return makeDetail(row);
  });
  return { client: { rwasMarkets, rwa } as unknown as CoingeckoClient, rwasMarkets, rwa };
}

describe(CoingeckoRwa.name, () => {
  let now: number;
  let warn: jest.SpyInstance;

  beforeEach(() => {
    now = T0;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => jest.restoreAllMocks());

  it('lists every RWA of the three types, largest token market cap first, with its tokens and slug', async () => {
    const { client, rwasMarkets } = fakeClient({
      stock: [makeRow('tesla', 'stock', '94121345'), makeRow('apple', 'stock', '30098765')],
      etf: [makeRow('spdr-s-p-500-etf-trust', 'etf', '40000000.5')],
      commodity: [makeRow('gold', 'commodity', '3412876543'), makeRow('silver', 'commodity', null)],
    });
    const sut = new CoingeckoRwa(client);

    const markets = await sut.listRwaMarkets({});

    expect(markets.map((market) => market.id)).toEqual(['gold', 'tesla', 'spdr-s-p-500-etf-trust', 'apple', 'silver']);
    expect(markets[0]).toEqual({
      id: 'gold',
      name: 'gold',
      symbol: 'GOLD',
      slug: 'gold-page',
      assetType: 'commodity',
      tokenPrice: '100.5',
      tokenMarketCap: '3412876543',
      tokenVolume24h: '1000',
      tokenChange24h: '-0.5',
      tokens: [{ coinId: 'gold-xstock', name: 'gold xStock', symbol: 'X' }],
      updatedAt: '2026-09-23T15:00:00.000Z',
    });
    expect(rwasMarkets.mock.calls.map(([params]) => [params.assetType, params.page, params.perPage])).toEqual([
      ['stock', 1, 250],
      ['etf', 1, 250],
      ['commodity', 1, 250],
    ]);
    expect(sut.name).toBe('coingecko');
  });

  it('pages an asset type until a short page, and lists an RWA sent twice once', async () => {
    const stocks = Array.from({ length: 260 }, (_, k) => makeRow(`stock-${String(k).padStart(3, '0')}`, 'stock', String(1_000_000 - k)));
    const { client, rwasMarkets } = fakeClient({ stock: stocks, etf: [stocks[0]] });

    const markets = await new CoingeckoRwa(client).listRwaMarkets({});

    expect(markets).toHaveLength(260);
    expect(rwasMarkets.mock.calls.filter(([params]) => params.assetType === 'stock').map(([params]) => params.page)).toEqual([1, 2]);
  });

  it('reads at most a batch of token lists per listing, largest first, and the rest on the next listings', async () => {
    const stocks = Array.from({ length: RWA_TOKEN_LOOKUPS_PER_LIST + 5 }, (_, k) => makeRow(`s${k}`, 'stock', String(1000 - k)));
    const { client, rwa } = fakeClient({ stock: stocks });
    const sut = new CoingeckoRwa(client);

    const first = await sut.listRwaMarkets({});
    expect(rwa).toHaveBeenCalledTimes(RWA_TOKEN_LOOKUPS_PER_LIST);
    expect(first.filter((market) => market.tokens.length === 0).map((market) => market.id)).toEqual(['s20', 's21', 's22', 's23', 's24']);
    expect(first.find((market) => market.id === 's24')?.slug).toBe('s24');

    const second = await sut.listRwaMarkets({});
    expect(rwa).toHaveBeenCalledTimes(RWA_TOKEN_LOOKUPS_PER_LIST + 5);
    expect(second.every((market) => market.tokens.length === 1)).toBe(true);

    await sut.listRwaMarkets({});
    expect(rwa).toHaveBeenCalledTimes(RWA_TOKEN_LOOKUPS_PER_LIST + 5);
    now += RWA_TOKENS_FRESH_MS;
    await sut.listRwaMarkets({});
    expect(rwa.mock.calls.slice(-RWA_TOKEN_LOOKUPS_PER_LIST).map(([id]) => id)).toEqual(stocks.slice(0, RWA_TOKEN_LOOKUPS_PER_LIST).map((row) => row.id));
  });

  it('keeps listing when a token list fails: that RWA keeps its last tokens, or none', async () => {
    const { client, rwa } = fakeClient({ stock: [makeRow('tesla', 'stock', '2'), makeRow('apple', 'stock', '1')] });
    const sut = new CoingeckoRwa(client);
    rwa.mockRejectedValueOnce(new UpstreamError({ provider: 'coingecko', kind: 'http', upstreamStatus: 503, message: 'rwas/id: HTTP 503' }));

    const first = await sut.listRwaMarkets({});
    expect(first.map((market) => [market.id, market.tokens.length])).toEqual([
      ['tesla', 0],
      ['apple', 1],
    ]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('rwa tesla: token list not read'));

    await sut.listRwaMarkets({});
    now += RWA_TOKENS_FRESH_MS;
    rwa.mockRejectedValue(new UpstreamError({ provider: 'coingecko', kind: 'timeout', message: 'rwas/id: timed out' }));
    const later = await sut.listRwaMarkets({});
    expect(later.map((market) => market.tokens[0]?.coinId)).toEqual(['tesla-xstock', 'apple-xstock']);
  });

  it('fails when the market list itself fails, and stops when aborted', async () => {
    const { client, rwasMarkets } = fakeClient({});
    rwasMarkets.mockRejectedValueOnce(new UpstreamError({ provider: 'coingecko', kind: 'shape', message: 'rwas/markets: expected array, got object' }));
    await expect(new CoingeckoRwa(client).listRwaMarkets({})).rejects.toMatchObject({ kind: 'shape' });

    const stopped = fakeClient({ stock: [makeRow('tesla', 'stock', '2')] });
    const controller = new AbortController();
    stopped.rwa.mockImplementation(async () => {
      controller.abort(new DOMException('stopped', 'AbortError'));
      throw new UpstreamError({ provider: 'coingecko', kind: 'aborted', message: 'rwas/id: aborted' });
    });
    await expect(new CoingeckoRwa(stopped.client).listRwaMarkets({ signal: controller.signal })).rejects.toThrow('stopped');
  });
});
