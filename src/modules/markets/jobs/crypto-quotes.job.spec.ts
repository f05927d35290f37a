import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../../config/app.config';
import { DisabledMarketDataProvider, ListQuotesParams, MarketDataProvider, MarketQuote } from '../../../providers/market-data-provider';
import { AssetQuoteInput, CatalogueAsset } from '../asset-row';
import { AssetsRepository, RefreshTarget } from '../assets.repository';
import { MarketDataRouter } from '../providers/market-data-router';
import { CryptoQuotesJob } from './crypto-quotes.job';
import { marketQuote } from '../../../../test/support/market-quotes';

function coin(sourceId: string, price = '1'): MarketQuote {
  const figures = { price, volume24h: `${price}000`, marketCap: `${price}000000` };
  return marketQuote(sourceId, { symbol: sourceId.toUpperCase(), name: `${sourceId} coin`, type: 'CRYPTO', currency: 'USD', ...figures });
}

/** A crypto vendor answering each page of its ranking from `pages` (1-based; past the last, an empty page). */
function fakeVendor(pages: MarketQuote[][], maxQuotesPerCall: number) {
  const listQuotes = jest.fn(async ({ page }: ListQuotesParams) => pages[page - 1] ?? []);
  const vendor = { name: 'coingecko', assetTypes: ['CRYPTO'], maxQuotesPerCall, listQuotes } as unknown as MarketDataProvider;
  return { vendor, listQuotes };
}

/** Ids are handed out in upsert order from 100. */
function fakeAssets() {
  const repository = {
    upsertCatalogue: jest.fn(async (entries: CatalogueAsset[]): Promise<RefreshTarget[]> =>
      entries.map((entry, i) => ({ id: 100 + i, type: 'CRYPTO', coingeckoId: entry.coingeckoId!, yahooSymbol: null, currency: 'USD' })),
    ),
    upsertQuotes: jest.fn(async (_quotes: AssetQuoteInput[]) => undefined),
    delistCryptoExcept: jest.fn(async (_ids: string[]) => 2),
  };
  return { repository, assets: repository as unknown as AssetsRepository };
}

const config = (cryptoUniverse: number) => new ConfigService<AppConfig, true>({ markets: { cryptoUniverse } });

describe(CryptoQuotesJob.name, () => {
  it('fails on an empty ranking and delists nothing (the vendor failing is not every coin leaving)', async () => {
    const { vendor } = fakeVendor([], 250);
    const { repository, assets } = fakeAssets();

    await expect(new CryptoQuotesJob(new MarketDataRouter([vendor]), assets, config(1000)).run()).rejects.toThrow('coingecko returned an empty ranking');
    expect(repository.delistCryptoExcept).not.toHaveBeenCalled();
  });

  it('stops two pages past the universe when the pages keep repeating coins already seen', async () => {
    const same = [coin('a'), coin('b')];
    const { vendor, listQuotes } = fakeVendor(
      Array.from({ length: 50 }, () => same),
      2,
    );
    const { assets } = fakeAssets();

    const outcome = await new CryptoQuotesJob(new MarketDataRouter([vendor]), assets, config(4)).run();

    expect(listQuotes).toHaveBeenCalledTimes(4);
    expect(outcome.rows).toBe(2);
  });

  it('reads the ranking page by page until the universe is reached', async () => {
    const { vendor, listQuotes } = fakeVendor(
      [
        [coin('a'), coin('b')],
        [coin('c'), coin('d')],
        [coin('e'), coin('f')],
        [coin('g'), coin('h')],
      ],
      2,
    );
    const { repository, assets } = fakeAssets();
    const sut = new CryptoQuotesJob(new MarketDataRouter([vendor]), assets, config(5));

    const outcome = await sut.run();

    expect(listQuotes.mock.calls.map(([params]) => [params.type, params.page, params.perPage])).toEqual([
      ['CRYPTO', 1, 2],
      ['CRYPTO', 2, 2],
      ['CRYPTO', 3, 2],
    ]);
    expect(outcome).toEqual({ rows: 5, details: { vendor: 'coingecko', delisted: 2 } });
    const catalogue = repository.upsertCatalogue.mock.calls[0][0];
    expect(catalogue.map((entry) => [entry.coingeckoId, entry.marketCapRank])).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 4],
      ['e', 5],
    ]);
    expect(catalogue[0]).toEqual({ type: 'CRYPTO', symbol: 'A', name: 'a coin', currency: 'USD', coingeckoId: 'a', marketCapRank: 1 });
  });

  it('stops at a short page, below the universe', async () => {
    const { vendor, listQuotes } = fakeVendor([[coin('a'), coin('b')], [coin('c')]], 2);
    const { repository, assets } = fakeAssets();

    const outcome = await new CryptoQuotesJob(new MarketDataRouter([vendor]), assets, config(10)).run();

    expect(listQuotes).toHaveBeenCalledTimes(2);
    expect(outcome.rows).toBe(3);
    expect(repository.delistCryptoExcept).toHaveBeenCalledWith(['a', 'b', 'c']);
  });

  it('asks for no more than the universe in one page', async () => {
    const { vendor, listQuotes } = fakeVendor([[coin('a'), coin('b'), coin('c')]], 250);
    const { assets } = fakeAssets();

    await new CryptoQuotesJob(new MarketDataRouter([vendor]), assets, config(3)).run();

    expect(listQuotes.mock.calls.map(([params]) => [params.page, params.perPage])).toEqual([[1, 3]]);
  });

  it('keeps the first rank and quote of a coin seen again on a later page, and reads on for the one it displaced', async () => {
    const { vendor, listQuotes } = fakeVendor(
      [
        [coin('a'), coin('b', '2')],
        [coin('b', '9'), coin('c')],
        [coin('d'), coin('e')],
      ],
      2,
    );
    const { repository, assets } = fakeAssets();

    await new CryptoQuotesJob(new MarketDataRouter([vendor]), assets, config(4)).run();

    expect(listQuotes).toHaveBeenCalledTimes(3);
    expect(repository.upsertCatalogue.mock.calls[0][0].map((entry) => [entry.coingeckoId, entry.marketCapRank])).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 4],
    ]);
    const quotes = repository.upsertQuotes.mock.calls[0][0];
    expect(quotes.find((q) => q.assetId === 101)).toMatchObject({ price: '2', marketCapUsd: '2000000', volume24hUsd: '2000' });
  });

  it('writes the quotes under the ids the catalogue gave, in USD as the vendor quotes them', async () => {
    const { vendor } = fakeVendor([[coin('a', '3'), coin('b', '4')]], 2);
    const { repository, assets } = fakeAssets();

    await new CryptoQuotesJob(new MarketDataRouter([vendor]), assets, config(2)).run();

    expect(repository.upsertQuotes.mock.calls[0][0].map((q) => [q.assetId, q.price, q.marketCap, q.marketCapUsd, q.volume24h, q.volume24hUsd])).toEqual([
      [100, '3', '3000000', '3000000', '3000', '3000'],
      [101, '4', '4000000', '4000000', '4000', '4000'],
    ]);
  });

  it('delists every coin but the ones kept, leaving out those read past the universe', async () => {
    const { vendor } = fakeVendor(
      [
        [coin('a'), coin('b')],
        [coin('c'), coin('d')],
      ],
      2,
    );
    const { repository, assets } = fakeAssets();

    await new CryptoQuotesJob(new MarketDataRouter([vendor]), assets, config(3)).run();

    expect(repository.delistCryptoExcept).toHaveBeenCalledWith(['a', 'b', 'c']);
    expect(repository.upsertCatalogue.mock.calls[0][0].map((entry) => entry.coingeckoId)).toEqual(['a', 'b', 'c']);
    expect(repository.upsertQuotes.mock.calls[0][0]).toHaveLength(3);
  });

  it('skips the run when no crypto vendor is configured, touching nothing', async () => {
    const { repository, assets } = fakeAssets();
    const sut = new CryptoQuotesJob(new MarketDataRouter([new DisabledMarketDataProvider()]), assets, config(5));

    const outcome = await sut.run();

    expect(outcome).toEqual({ rows: 0, details: { skipped: 'no crypto vendor configured' } });
    expect(repository.upsertCatalogue).not.toHaveBeenCalled();
    expect(repository.upsertQuotes).not.toHaveBeenCalled();
    expect(repository.delistCryptoExcept).not.toHaveBeenCalled();
  });
});
