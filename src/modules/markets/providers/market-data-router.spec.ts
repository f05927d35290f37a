import { ErrorCode } from '../../../common/errors/error-code';
import { ProviderDisabledError } from '../../../providers/kit/provider-disabled.error';
import { AssetType, DisabledMarketDataProvider, MarketDataProvider } from '../../../providers/market-data-provider';
import { MarketDataRouter } from './market-data-router';

function fakeVendor(name: string, assetTypes: AssetType[]): MarketDataProvider {
  const answer = jest.fn().mockResolvedValue([name]);
  return {
    name,
    assetTypes,
    maxQuotesPerCall: 10,
    getQuotes: answer,
    listQuotes: answer,
    getCandles: answer,
    getTickers: answer,
    getProfile: answer,
    getClassification: answer,
    getGlobalStats: jest.fn().mockResolvedValue({ vendor: name }),
    listCatalogue: answer,
    search: answer,
  };
}

describe(MarketDataRouter.name, () => {
  const crypto = fakeVendor('crypto', ['CRYPTO']);
  const tradfi = fakeVendor('tradfi', ['STOCK', 'ETF', 'FOREX', 'COMMODITY']);

  it('sends each call to the vendor of its asset type, without the type', async () => {
    const sut = new MarketDataRouter([crypto, tradfi]);
    expect(await sut.getCandles({ type: 'ETF', sourceId: 'QQQ', interval: 'D1', limit: 5 })).toEqual(['tradfi']);
    expect(tradfi.getCandles).toHaveBeenCalledWith({ sourceId: 'QQQ', interval: 'D1', limit: 5 });
    expect(await sut.getTickers({ type: 'CRYPTO', sourceId: 'bitcoin', symbol: 'BTC' })).toEqual(['crypto']);
    expect(crypto.getTickers).toHaveBeenCalledWith({ sourceId: 'bitcoin', symbol: 'BTC' });
    expect(await sut.getQuotes({ type: 'FOREX', sourceIds: ['EURUSD=X'] })).toEqual(['tradfi']);
    expect(await sut.getGlobalStats({})).toEqual({ vendor: 'crypto' });
    expect(sut.vendorFor('COMMODITY').name).toBe('tradfi');
  });

  it('answers 503 MARKET_DATA_DISABLED for a type no vendor answers', async () => {
    const sut = new MarketDataRouter([new DisabledMarketDataProvider(), tradfi]);
    expect(sut.vendorFor('CRYPTO').name).toBe('none');
    const refused = sut.getQuotes({ type: 'CRYPTO', sourceIds: ['bitcoin'] });
    await expect(refused).rejects.toBeInstanceOf(ProviderDisabledError);
    await expect(refused).rejects.toMatchObject({ code: ErrorCode.MARKET_DATA_DISABLED });
    await expect(sut.getGlobalStats({})).rejects.toBeInstanceOf(ProviderDisabledError);
    expect(await sut.listCatalogue({ type: 'STOCK' })).toEqual(['tradfi']);
  });
});
