import { Logger } from '@nestjs/common';
import { UpstreamError } from '../../../providers/kit/upstream.error';
import { DisabledMarketDataProvider, MarketDataProvider, MarketQuote } from '../../../providers/market-data-provider';
import { AssetQuoteInput } from '../asset-row';
import { AssetType } from '../asset-types';
import { AssetsRepository, RefreshTarget } from '../assets.repository';
import { MarketDataRouter } from '../providers/market-data-router';
import { TradfiQuotesJob } from './tradfi-quotes.job';
import { marketQuote } from '../../../../test/support/market-quotes';

const TRADFI: AssetType[] = ['STOCK', 'ETF', 'FOREX', 'COMMODITY'];

function target(id: number, yahooSymbol: string, currency: string | null, type: AssetType = 'STOCK'): RefreshTarget {
  return { id, type, coingeckoId: null, yahooSymbol, currency };
}

function quote(sourceId: string, figures: { price: string | null; volume24h?: string | null; marketCap?: string | null }): MarketQuote {
  return marketQuote(sourceId, { change24h: '1.5', updatedAt: '2025-01-02T03:04:05.000Z', ...figures });
}

/** A tradfi vendor quoting from `book`, `batchSize` symbols a call; a batch holding a symbol of `failing` rejects. */
function fakeVendor(book: MarketQuote[], { batchSize = 50, failing = [] as string[] } = {}) {
  const bySymbol = new Map(book.map((q) => [q.sourceId, q]));
  const getQuotes = jest.fn(async ({ sourceIds }: { sourceIds: readonly string[] }) => {
    if (sourceIds.some((id) => failing.includes(id))) throw new UpstreamError({ provider: 'yahoo', kind: 'http', upstreamStatus: 500, message: 'HTTP 500' });
    return sourceIds.flatMap((id) => (bySymbol.has(id) ? [bySymbol.get(id)!] : []));
  });
  const vendor = { name: 'yahoo', assetTypes: TRADFI, maxQuotesPerCall: batchSize, getQuotes } as unknown as MarketDataProvider;
  return { vendor, getQuotes };
}

/** The repository the job writes through, recording the order of its calls. */
function fakeAssets(targets: RefreshTarget[], storedPrices: ReadonlyMap<string, string> = new Map()) {
  const calls: string[] = [];
  const written: AssetQuoteInput[] = [];
  const repository = {
    upsertCatalogue: jest.fn(async () => {
      calls.push('upsertCatalogue');
      return [];
    }),
    listRefreshTargets: jest.fn(async () => {
      calls.push('listRefreshTargets');
      return targets;
    }),
    upsertQuotes: jest.fn(async (quotes: AssetQuoteInput[]) => {
      calls.push('upsertQuotes');
      written.push(...quotes);
    }),
    latestPricesByYahooSymbol: jest.fn(async (symbols: string[]) => new Map([...storedPrices].filter(([symbol]) => symbols.includes(symbol)))),
  };
  return { repository, assets: repository as unknown as AssetsRepository, calls, written };
}

const usdOf = (written: AssetQuoteInput[], assetId: number) => {
  const input = written.find((q) => q.assetId === assetId);
  return input && { marketCapUsd: input.marketCapUsd, volume24hUsd: input.volume24hUsd };
};

describe(TradfiQuotesJob.name, () => {
  const FX = [quote('HKD=X', { price: '7.8' }), quote('JPY=X', { price: '150' }), quote('KRW=X', { price: '1350' })];

  afterEach(() => jest.restoreAllMocks());

  it('converts market cap and traded value to USD at the <CCY>=X quotes of the same run', async () => {
    const { vendor, getQuotes } = fakeVendor([
      quote('AAPL', { price: '200', volume24h: '50000000', marketCap: '3000000000000' }),
      quote('0700.HK', { price: '400', volume24h: '1000000', marketCap: '3900000000000' }),
      quote('7203.T', { price: '3000', volume24h: '2000000', marketCap: '45000000000000' }),
      quote('005930.KS', { price: '70000', volume24h: '10000000', marketCap: '405000000000000' }),
      ...FX,
    ]);
    const { assets, written } = fakeAssets([target(1, 'AAPL', 'USD'), target(2, '0700.HK', 'HKD'), target(3, '7203.T', 'JPY'), target(4, '005930.KS', 'KRW')]);
    const sut = new TradfiQuotesJob(new MarketDataRouter([vendor]), assets);

    const outcome = await sut.run();

    expect(outcome).toEqual({ rows: 4, failures: 0, details: { vendor: 'yahoo', unquoted: 0 } });
    expect(getQuotes.mock.calls.flatMap(([{ sourceIds }]) => sourceIds)).toEqual(['AAPL', '0700.HK', '7203.T', '005930.KS', 'HKD=X', 'JPY=X', 'KRW=X']);
    expect(usdOf(written, 1)).toEqual({ marketCapUsd: '3000000000000', volume24hUsd: '10000000000' });
    expect(usdOf(written, 2)).toEqual({ marketCapUsd: '500000000000', volume24hUsd: '51282051.28' });
    expect(usdOf(written, 3)).toEqual({ marketCapUsd: '300000000000', volume24hUsd: '40000000' });
    expect(usdOf(written, 4)).toEqual({ marketCapUsd: '300000000000', volume24hUsd: '518518518.52' });
    // The native figures stay as the vendor gave them.
    expect(written.find((q) => q.assetId === 2)).toMatchObject({ price: '400', marketCap: '3900000000000', volume24h: '1000000' });
  });

  it('leaves the USD figures null when the currency has no FX quote in the run', async () => {
    const { vendor } = fakeVendor([quote('0700.HK', { price: '400', volume24h: '1000000', marketCap: '3900000000000' })]);
    const { assets, written } = fakeAssets([target(2, '0700.HK', 'HKD')]);

    await new TradfiQuotesJob(new MarketDataRouter([vendor]), assets).run();

    expect(usdOf(written, 2)).toEqual({ marketCapUsd: null, volume24hUsd: null });
    expect(written[0].price).toBe('400');
  });

  it('takes a rate this run could not read from the last stored quote, so a failed FX batch blanks nothing', async () => {
    const { vendor } = fakeVendor([quote('0700.HK', { price: '400', volume24h: '1000', marketCap: '8000' })]);
    const { assets, written } = fakeAssets([target(2, '0700.HK', 'HKD')], new Map([['HKD=X', '8']]));

    await new TradfiQuotesJob(new MarketDataRouter([vendor]), assets).run();

    expect(usdOf(written, 2)).toEqual({ marketCapUsd: '1000', volume24hUsd: '50000' });
  });

  it('reports no USD volume for an FX pair, whatever volume the vendor gives', async () => {
    const { vendor } = fakeVendor([quote('JPY=X', { price: '150', volume24h: '123456' }), quote('EURUSD=X', { price: '1.08', volume24h: '99' })]);
    const { assets, written } = fakeAssets([target(5, 'JPY=X', 'JPY', 'FOREX'), target(6, 'EURUSD=X', 'USD', 'FOREX')]);

    await new TradfiQuotesJob(new MarketDataRouter([vendor]), assets).run();

    expect(usdOf(written, 5)).toEqual({ marketCapUsd: null, volume24hUsd: null });
    expect(usdOf(written, 6)).toEqual({ marketCapUsd: null, volume24hUsd: null });
  });

  it('counts a failed batch and still writes the quotes of the others', async () => {
    const warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { vendor, getQuotes } = fakeVendor([quote('A', { price: '1' }), quote('B', { price: '2' }), quote('C', { price: '3' }), quote('D', { price: '4' })], {
      batchSize: 2,
      failing: ['A'],
    });
    const { assets, written } = fakeAssets([target(1, 'A', 'USD'), target(2, 'B', 'USD'), target(3, 'C', 'USD'), target(4, 'D', 'USD')]);

    const outcome = await new TradfiQuotesJob(new MarketDataRouter([vendor]), assets).run();

    expect(getQuotes).toHaveBeenCalledTimes(2);
    expect(outcome).toEqual({ rows: 2, failures: 1, details: { vendor: 'yahoo', unquoted: 2 } });
    expect(written.map((q) => [q.assetId, q.price])).toEqual([
      [3, '3'],
      [4, '4'],
    ]);
    expect(warned).toHaveBeenCalledWith(expect.stringContaining('quotes of symbols 0-2 failed'));
  });

  it('throws when every batch fails, writing no quote', async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { vendor } = fakeVendor([quote('A', { price: '1' }), quote('B', { price: '2' }), quote('C', { price: '3' })], { batchSize: 2, failing: ['A', 'C'] });
    const { assets, repository } = fakeAssets([target(1, 'A', 'USD'), target(2, 'B', 'USD'), target(3, 'C', 'USD')]);

    await expect(new TradfiQuotesJob(new MarketDataRouter([vendor]), assets).run()).rejects.toThrow('every quote batch failed (2)');

    expect(repository.upsertQuotes).not.toHaveBeenCalled();
  });

  it('writes the seed universe into the catalogue before it quotes anything', async () => {
    const { vendor } = fakeVendor([quote('AAPL', { price: '200' })]);
    const { assets, repository, calls } = fakeAssets([target(1, 'AAPL', 'USD')]);

    await new TradfiQuotesJob(new MarketDataRouter([vendor]), assets).run();

    expect(calls).toEqual(['upsertCatalogue', 'listRefreshTargets', 'upsertQuotes']);
    const seed = repository.upsertCatalogue.mock.calls[0] as unknown as [Array<{ yahooSymbol: string; type: AssetType }>];
    expect(seed[0].map((entry) => entry.yahooSymbol)).toEqual(expect.arrayContaining(['AAPL', '0700.HK', '7203.T', '005930.KS', 'JPY=X']));
    expect(seed[0].every((entry) => entry.type !== 'CRYPTO')).toBe(true);
  });

  it('skips quoting when no tradfi vendor is configured, the seed still written', async () => {
    const { assets, repository } = fakeAssets([target(1, 'AAPL', 'USD')]);
    const sut = new TradfiQuotesJob(new MarketDataRouter([new DisabledMarketDataProvider()]), assets);

    const outcome = await sut.run();

    expect(outcome).toEqual({ rows: 0, details: { skipped: 'no vendor configured for stocks, ETFs, FX and futures' } });
    expect(repository.upsertCatalogue).toHaveBeenCalledTimes(1);
    expect(repository.listRefreshTargets).not.toHaveBeenCalled();
    expect(repository.upsertQuotes).not.toHaveBeenCalled();
  });
});
