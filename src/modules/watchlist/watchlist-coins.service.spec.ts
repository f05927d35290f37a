import { HlCatalog, HlCatalogService } from '../hl/hl-catalog.service';
import { MarketRow } from '../hl/hl-markets.repository';
import { AssetRow } from '../markets/asset-row';
import { AssetsRepository } from '../markets/assets.repository';
import { WatchlistCoinsService } from './watchlist-coins.service';

function market(market: string, coin: string, dex = ''): MarketRow {
  return { market, coin, dex, markPx: null, midPx: null, outcomeId: null, outcomeSide: null, outcomeName: null };
}

describe(WatchlistCoinsService.name, () => {
  const catalog = HlCatalog.build(
    [
      market('perp', 'BTC'),
      market('perp', 'xyz:TSLA', 'xyz'),
      market('perp', 'kPEPE'),
      market('perp', 'KPEPE'),
      market('spot', 'HYPE'),
      market('spot', 'Pump'),
      market('perp', 'PUMP'),
      { ...market('hip4', '#0'), outcomeId: 0, outcomeSide: 0 },
    ],
    { market: null, leaderboard: null },
  );
  const assets: Record<string, Partial<AssetRow>> = {
    aapl: { symbol: 'AAPL', stockCode: 'AAPL-US', listed: true },
    eurusd: { symbol: 'EURUSD', stockCode: null, listed: true },
    gone: { symbol: 'GONE', stockCode: 'GONE-US', listed: false },
  };
  const repository = { resolveSymbol: jest.fn(async (symbol: string) => assets[symbol.toLowerCase()] as AssetRow | undefined) };
  const sut = new WatchlistCoinsService({ get: () => catalog } as unknown as HlCatalogService, repository as unknown as AssetsRepository);

  it('answers the canonical /hl spelling, exactly or ignoring case, perps and HIP-3 coins before spot tokens', async () => {
    expect(await sut.resolve('BTC')).toBe('BTC');
    expect(await sut.resolve('btc')).toBe('BTC');
    expect(await sut.resolve('XYZ:tsla')).toBe('xyz:TSLA');
    expect(await sut.resolve('hype')).toBe('HYPE');
    // An exact spot spelling wins over a perp that matches only ignoring case.
    expect(await sut.resolve('Pump')).toBe('Pump');
    expect(await sut.resolve('pump')).toBe('PUMP');
    expect(repository.resolveSymbol).not.toHaveBeenCalled();
  });

  it('answers a listed catalogue symbol under its stock code or symbol', async () => {
    expect(await sut.resolve('aapl')).toBe('AAPL-US');
    expect(await sut.resolve('EURUSD')).toBe('EURUSD');
  });

  it('refuses unknown, unlisted, outcome and case-ambiguous coins 400 naming coin', async () => {
    for (const coin of ['DOGE', 'gone', '#0', 'kpepe', 'abc:TSLA']) {
      await expect(sut.resolve(coin)).rejects.toThrow(/^coin: unknown coin/);
    }
    expect(await sut.resolve('kPEPE')).toBe('kPEPE');
  });
});
