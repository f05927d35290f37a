import { HlMarketsRepository, VenueMarketRow } from './hl-markets.repository';
import { HlVenueService } from './hl-venue.service';

const AT = new Date('2025-01-02T03:04:05.000Z');
const LATER = new Date('2025-01-02T03:04:35.000Z');

function market(
  marketType: VenueMarketRow['market'],
  coin: string,
  figures: { dex?: string; price?: string | null; volume?: string | null; openInterest?: string | null; at?: Date } = {},
): VenueMarketRow {
  return {
    market: marketType,
    coin,
    dex: figures.dex ?? '',
    price: figures.price === undefined ? '1' : figures.price,
    dayVolumeUsd: figures.volume === undefined ? null : figures.volume,
    openInterestUsd: figures.openInterest === undefined ? null : figures.openInterest,
    updatedAt: figures.at ?? AT,
  };
}

const MARKETS: VenueMarketRow[] = [
  market('perp', 'BTC', { price: '97000', volume: '1500000000', openInterest: '2000000000' }),
  market('spot', 'UBTC', { price: '96990', volume: '30000000' }),
  market('perp', 'xyz:BTC', { dex: 'xyz', price: '96900', volume: '1000', openInterest: '5000' }),
  market('perp', 'HYPE', { price: '25', volume: '200000000', openInterest: '900000000', at: LATER }),
  market('spot', 'HYPE', { price: '25.01', volume: '40000000' }),
  market('perp', 'ETH', { price: '3500', volume: null, openInterest: null }),
  market('perp', 'xyz:TSLA', { dex: 'xyz', price: '250', volume: '8000000', openInterest: '3000000' }),
  market('perp', 'abc:TSLA', { dex: 'abc', price: '251', volume: '100000', openInterest: '70000' }),
  market('perp', 'xyz:TSLAX', { dex: 'xyz', price: '9', volume: '1', openInterest: '1' }),
  market('spot', 'TSLA', { price: '249', volume: '5' }),
  market('perp', 'SOL', { price: null, volume: '7', openInterest: '7' }),
];

function sutOver(rows: VenueMarketRow[]) {
  const listVenueMarkets = jest.fn(async () => rows);
  return { sut: new HlVenueService({ listVenueMarkets } as unknown as HlMarketsRepository), listVenueMarkets };
}

describe(HlVenueService.name, () => {
  describe('tickersOf a crypto asset', () => {
    it('gives the native perp and the spot pair of the bridged token (UBTC for BTC), not the HIP-3 perps of the same name', async () => {
      const { sut } = sutOver(MARKETS);

      const tickers = await sut.tickersOf('BTC', 'crypto');

      expect(tickers).toEqual([
        { pair: 'BTC/USDC', marketType: 'perp', price: '97000', volume24h: '1500000000', updatedAt: AT },
        { pair: 'UBTC/USDC', marketType: 'spot', price: '96990', volume24h: '30000000', updatedAt: AT },
      ]);
    });

    it('gives the perp and the spot pair a coin trades under its own symbol, whatever the case asked', async () => {
      const { sut } = sutOver(MARKETS);

      const tickers = await sut.tickersOf('hype', 'crypto');

      expect(tickers.map((t) => [t.pair, t.marketType, t.price])).toEqual([
        ['HYPE/USDC', 'perp', '25'],
        ['HYPE/USDC', 'spot', '25.01'],
      ]);
    });

    it('leaves out a market with no price, and a perp named like the bridged token', async () => {
      const { sut } = sutOver([...MARKETS, market('perp', 'UBTC', { price: '1' })]);

      expect(await sut.tickersOf('SOL', 'crypto')).toEqual([]);
      expect((await sut.tickersOf('BTC', 'crypto')).map((t) => t.pair)).toEqual(['BTC/USDC', 'UBTC/USDC']);
    });
  });

  describe('tickersOf a listed asset', () => {
    it('gives only the HIP-3 perps `dex:SYM` of every dex listing it', async () => {
      const { sut } = sutOver(MARKETS);

      const tickers = await sut.tickersOf('TSLA', 'listed');

      expect(tickers.map((t) => [t.pair, t.marketType, t.price, t.volume24h])).toEqual([
        ['xyz:TSLA/USDC', 'perp', '250', '8000000'],
        ['abc:TSLA/USDC', 'perp', '251', '100000'],
      ]);
    });

    it('never gives a native market, even when one shares the symbol', async () => {
      const { sut } = sutOver(MARKETS);

      expect(await sut.tickersOf('BTC', 'listed')).toEqual([expect.objectContaining({ pair: 'xyz:BTC/USDC', marketType: 'perp' })]);
      expect(await sut.tickersOf('HYPE', 'listed')).toEqual([]);
    });
  });

  describe('totals', () => {
    it('sums open interest over the perps of every dex and volume over perps and spot, unknown figures left out', async () => {
      const { sut } = sutOver(MARKETS);

      const totals = await sut.totals();

      expect(totals).toEqual({
        openInterestUsd: '2903075008',
        volume24hUsd: '1778101013',
        perpMarkets: 8,
        spotMarkets: 3,
        updatedAt: LATER,
      });
    });

    it('is zero with no market, and has no time', async () => {
      const { sut } = sutOver([]);

      expect(await sut.totals()).toEqual({ openInterestUsd: '0', volume24hUsd: '0', perpMarkets: 0, spotMarkets: 0, updatedAt: null });
    });
  });

  it('never counts USDC, priced at 1 for valuations, as a market of USDC against itself', async () => {
    const { sut } = sutOver([market('spot', 'USDC', { price: '1', volume: '5' }), market('spot', 'HYPE', { price: '25', volume: '40' })]);

    expect(await sut.tickersOf('USDC', 'crypto')).toEqual([]);
    expect(await sut.totals()).toMatchObject({ spotMarkets: 1, volume24hUsd: '40' });
  });

  it('reads the markets table once for calls a few seconds apart', async () => {
    const { sut, listVenueMarkets } = sutOver(MARKETS);

    await sut.tickersOf('BTC', 'crypto');
    await sut.tickersOf('TSLA', 'listed');
    await sut.totals();

    expect(listVenueMarkets).toHaveBeenCalledTimes(1);
  });
});
