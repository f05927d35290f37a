import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { AssetRow } from './asset-row';
import { AssetsRepository } from './assets.repository';
import { AssetsService } from './assets.service';
import { AssetsQueryDto } from './dto/markets.query.dto';

const REFRESHED_AT = new Date('2025-01-02T03:04:05.000Z');

const BTC: AssetRow = {
  id: 7,
  type: 'CRYPTO',
  symbol: 'BTC',
  name: 'Bitcoin',
  market: null,
  stockCode: null,
  currency: 'USD',
  sector: null,
  industry: null,
  categories: [],
  coingeckoId: 'bitcoin',
  yahooSymbol: null,
  binancePair: null,
  marketCapRank: 1,
  listed: true,
  price: '97000',
  change1h: null,
  change24h: '1.5',
  change7d: null,
  volume24h: '1000',
  marketCap: '1900000000000',
  high24h: null,
  low24h: null,
  sparkline7d: [],
  sourceUpdatedAt: null,
  refreshedAt: REFRESHED_AT,
};

function setup() {
  const repository = {
    resolveSymbol: jest.fn(async (key: string) => (key === 'btc' ? BTC : undefined)),
    listAssets: jest.fn(async () => ({ rows: [BTC], total: 1 })),
  };
  return { sut: new AssetsService(repository as unknown as AssetsRepository), repository };
}

describe(AssetsService.name, () => {
  describe('resolve', () => {
    it('finds an asset by its symbol whatever the case, one catalogue read for both spellings', async () => {
      const { sut, repository } = setup();

      expect(await sut.resolve('BTC')).toBe(BTC);
      expect(await sut.resolve(' btc ')).toBe(BTC);

      expect(repository.resolveSymbol.mock.calls).toEqual([['btc']]);
    });

    it('answers an unknown symbol 404 MARKET_ASSET_NOT_FOUND, naming it', async () => {
      const { sut } = setup();

      const refused = sut.resolve('NOPE');

      await expect(refused).rejects.toBeInstanceOf(AppError);
      await expect(refused).rejects.toMatchObject({ code: ErrorCode.MARKET_ASSET_NOT_FOUND, message: 'symbol: no asset matches "NOPE"' });
    });

    it('refuses an empty or overlong symbol without reading the catalogue', async () => {
      const { sut, repository } = setup();

      await expect(sut.resolve('  ')).rejects.toMatchObject({ code: ErrorCode.MARKET_ASSET_NOT_FOUND });
      await expect(sut.resolve('X'.repeat(41))).rejects.toMatchObject({ code: ErrorCode.MARKET_ASSET_NOT_FOUND });

      expect(repository.resolveSymbol).not.toHaveBeenCalled();
    });
  });

  it('lists from the catalogue, dated by the oldest quote of the page', async () => {
    const { sut, repository } = setup();
    const query = Object.assign(new AssetsQueryDto(), { type: 'CRYPTO', page: 1, limit: 20 });

    const aged = await sut.list(query);

    expect(repository.listAssets).toHaveBeenCalledWith(expect.objectContaining({ type: 'CRYPTO', limit: 20, offset: 0 }));
    expect(aged.asOf).toBe(REFRESHED_AT.getTime());
    expect(JSON.parse(aged.data.json)).toMatchObject({ items: [{ id: 7, symbol: 'BTC', price: '97000' }], total: 1 });
  });
});
