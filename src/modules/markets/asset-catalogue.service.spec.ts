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
  const upsertCatalogue = jest.fn();
  const sut = new AssetCatalogueService({ getQuotes } as unknown as MarketDataRouter, { upsertCatalogue } as unknown as AssetsRepository);

  beforeEach(() => {
    getQuotes.mockReset();
    upsertCatalogue.mockReset().mockImplementation(async () => [{ id: 412 }]);
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
