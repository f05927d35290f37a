import { AppError } from '../../common/errors/app-error';
import { UpstreamCacheFactory } from '../../providers/kit/upstream-cache';
import { RwaMarket, RwaProvider } from '../../providers/rwa-provider';
import { AssetCatalogueService } from '../markets/asset-catalogue.service';
import type { AssetRow } from '../markets/asset-row';
import { AssetsRepository, CoinFigures } from '../markets/assets.repository';
import { RwaService } from './rwa.service';

const market = (id: string, symbol: string, assetType: RwaMarket['assetType']): RwaMarket => ({
  id,
  name: id,
  symbol,
  slug: id,
  assetType,
  tokenPrice: '10',
  tokenMarketCap: '1000000',
  tokenVolume24h: '5000',
  tokenChange24h: '1.5',
  tokens: [{ coinId: `${id}-token`, name: `${id} token`, symbol: `${symbol}x` }],
  updatedAt: '2026-11-24T12:00:00.000Z',
});

const asset = (id: number, symbol: string, price: string | null): AssetRow =>
  ({ id, type: 'STOCK', symbol, price, marketCap: '900000000', volume24h: '120000', sourceUpdatedAt: null }) as unknown as AssetRow;

describe(RwaService.name, () => {
  const listed = new Map<string, AssetRow>();
  const addAsset = jest.fn();
  const catalogue = {
    resolveSymbol: jest.fn(async (symbol: string) => listed.get(symbol)),
    coinsByCoingeckoId: jest.fn(async () => new Map<string, CoinFigures>()),
  };
  const markets = [
    market('apple', 'aapl', 'stock'),
    market('coinbase', 'coin', 'stock'),
    market('mystery', 'zzqx', 'stock'),
    market('silver', 'xag', 'commodity'),
    market('gold', 'xau', 'commodity'),
  ];
  const provider: RwaProvider = { name: 'fake', listRwaMarkets: async () => markets };
  const caches = { create: () => ({ getAged: async <T>(_: string, load: () => Promise<T>) => ({ value: await load(), loadedAt: Date.now() }) }) };
  // A service per test: it keeps the list it built for a few seconds.
  let sut: RwaService;

  beforeEach(() => {
    sut = new RwaService(
      provider,
      catalogue as unknown as AssetsRepository,
      { addAsset } as unknown as AssetCatalogueService,
      caches as unknown as UpstreamCacheFactory,
    );
    listed.clear();
    listed.set('AAPL', asset(1, 'AAPL', '230.5'));
    // The vendor quotes COIN but not ZZQX, so only COIN can be added.
    addAsset.mockReset().mockImplementation(async ({ yahooSymbol }: { yahooSymbol: string }) => {
      if (yahooSymbol !== 'COIN') throw AppError.validation('symbol', `${yahooSymbol} is not a stock the vendor quotes`);
      listed.set('COIN', asset(2, 'COIN', '312.1'));
    });
  });

  it('adds a stock underlier the catalogue lacks and leaves out the rows it still cannot price, ranking the rows served', async () => {
    const { data } = await sut.list({ type: 'ALL', sort: 'rank', order: 'desc', page: 1, limit: 20 });
    const body = JSON.parse(data.json);

    expect(addAsset.mock.calls.map(([input]) => input.yahooSymbol).sort()).toEqual(['COIN', 'ZZQX']);
    expect(body.items.map((item: { rwaId: string; rank: number; linkedAssetId: number }) => [item.rwaId, item.rank, item.linkedAssetId])).toEqual([
      ['apple', 1, 1],
      ['coinbase', 2, 2],
    ]);
    expect(body.total).toBe(2);
    expect(body.items[1]).toMatchObject({ rwaPrice: 312.1, marketCap: 900000000, volume: 120000, linkedAssetSymbol: 'COIN' });
  });

  it("prices gold's market cap from its quote and the stock above ground, and leaves out a commodity whose stock is not known", async () => {
    const commodity = (id: number, symbol: string, price: string) =>
      ({ ...asset(id, symbol, price), type: 'COMMODITY', marketCap: null }) as unknown as AssetRow;
    listed.set('GC', commodity(3, 'GC', '2000'));
    listed.set('SI', commodity(4, 'SI', '30'));
    const { data } = await sut.list({ type: 'ALL', sort: 'rank', order: 'desc', page: 1, limit: 20 });
    const items: Array<{ rwaId: string; marketCap: number }> = JSON.parse(data.json).items;

    expect(items.map((item) => item.rwaId)).toEqual(['apple', 'coinbase', 'gold']);
    // 216,265 t of 31.1034768 g troy ounces at 2,000 USD.
    expect(items[2].marketCap).toBe(Math.round((216_265e6 / 31.1034768) * 2000));
  });
});
