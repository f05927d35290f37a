import { MarketQuote } from '../../providers/market-data-provider';
import { AssetCatalogueService, displaySymbolOf } from './asset-catalogue.service';
import { AssetsRepository } from './assets.repository';
import { MarketDataRouter } from './providers/market-data-router';
import { marketQuote } from '../../../test/support/market-quotes';

function yahooQuote(overrides: Partial<MarketQuote>): MarketQuote {
  return marketQuote('9988.HK', { name: 'Alibaba Group Holding Limited', market: 'HK', currency: 'HKD', price: '120', ...overrides });
}

describe(displaySymbolOf.name, () => {
  it.each([
    ['9988.HK', '9988'],
    ['7203.T', '7203'],
    ['NVDA', 'NVDA'],
    ['BRK-B', 'BRK-B'],
    ['SI=F', 'SI'],
    ['CHF=X', 'USDCHF'],
    ['EURJPY=X', 'EURJPY'],
  ])('%s is shown as %s', (yahooSymbol, shown) => {
    expect(displaySymbolOf(yahooSymbol)).toBe(shown);
  });
});

describe(AssetCatalogueService.name, () => {
  const getQuotes = jest.fn();
  const getClassification = jest.fn();
  const upsertCatalogue = jest.fn();
  const upsertQuotes = jest.fn();
  const latestPricesByYahooSymbol = jest.fn(async () => new Map([['HKD=X', '7.8']]));
  const sut = new AssetCatalogueService(
    { getQuotes, getClassification } as unknown as MarketDataRouter,
    { upsertCatalogue, upsertQuotes, latestPricesByYahooSymbol } as unknown as AssetsRepository,
  );

  beforeEach(() => {
    getQuotes.mockReset();
    getClassification.mockReset().mockResolvedValue({ sector: 'Consumer Cyclical', industry: 'Internet Retail' });
    upsertQuotes.mockReset();
    upsertCatalogue.mockReset().mockImplementation(async () => [{ id: 412, type: 'STOCK', currency: 'HKD' }]);
  });

  it('writes what the vendor says of the symbol, keyed by it, with the stock code and sector slug', async () => {
    getQuotes.mockResolvedValue([yahooQuote({})]);

    const added = await sut.addAsset({ yahooSymbol: ' 9988.hk ', sector: 'Consumer Cyclical' });

    expect(getQuotes).toHaveBeenCalledWith({ type: 'STOCK', sourceIds: ['9988.HK'] });
    expect(added).toMatchObject({
      id: 412,
      symbol: '9988',
      stockCode: '9988-HK',
      market: 'HK',
      currency: 'HKD',
      categories: ['consumer-cyclical'],
      yahooSymbol: '9988.HK',
    });
    expect(upsertCatalogue).toHaveBeenCalledWith([expect.objectContaining({ yahooSymbol: '9988.HK', type: 'STOCK' })]);
  });

  it("takes a stock's sector and industry from the vendor unless given, and stores the quote read, so it is priced at once", async () => {
    getQuotes.mockResolvedValue([yahooQuote({ marketCap: '2340000000000' })]);

    const added = await sut.addAsset({ yahooSymbol: '9988.HK', industry: 'Internet Retail - Asia' });

    expect(getClassification).toHaveBeenCalledWith({ type: 'STOCK', sourceId: '9988.HK' });
    expect(added).toMatchObject({ sector: 'Consumer Cyclical', industry: 'Internet Retail - Asia', categories: ['consumer-cyclical'] });
    expect(upsertQuotes).toHaveBeenCalledWith([expect.objectContaining({ assetId: 412, price: '120', marketCapUsd: '300000000000' })]);
  });

  it('refuses a stock the vendor gives no industry for, unless the operator names it', async () => {
    getQuotes.mockResolvedValue([yahooQuote({})]);
    getClassification.mockResolvedValue({ sector: 'Consumer Cyclical', industry: null });
    await expect(sut.addAsset({ yahooSymbol: '9988.HK' })).rejects.toThrow(/^symbol: the vendor gives no sector and industry for 9988.HK/);
    expect(upsertCatalogue).not.toHaveBeenCalled();
    await expect(sut.addAsset({ yahooSymbol: '9988.HK', industry: 'Internet Retail' })).resolves.toMatchObject({ industry: 'Internet Retail' });
  });

  it.each([
    ['a malformed symbol', 'not a symbol!', []],
    ['a symbol the vendor does not quote', 'ZZQX9', []],
    ['a stock of a market we do not list', 'VOD.L', [yahooQuote({ sourceId: 'VOD.L', market: null })]],
  ])('refuses %s, naming symbol, and writes nothing', async (_, yahooSymbol, quotes) => {
    getQuotes.mockResolvedValue(quotes);
    await expect(sut.addAsset({ yahooSymbol })).rejects.toThrow(/^symbol: /);
    expect(upsertCatalogue).not.toHaveBeenCalled();
  });
});
