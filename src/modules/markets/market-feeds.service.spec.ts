import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { UpstreamCacheFactory } from '../../providers/kit/upstream-cache';
import { AssetType, Candle, MarketDataProvider, VenueTicker } from '../../providers/market-data-provider';
import { HlVenueService, HlVenueTicker } from '../hl/hl-venue.service';
import { AssetRow } from './asset-row';
import { AssetsService } from './assets.service';
import { KlineDto, TickerDto } from './dto/market-data.dto';
import { KlinesQueryDto, TickersQueryDto } from './dto/markets.query.dto';
import { MarketFeedsService } from './market-feeds.service';
import { MarketDataRouter } from './providers/market-data-router';
import { NO_FIGURES } from '../../../test/support/market-quotes';

const HOUR_MS = 3_600_000;
const HL_UPDATED_AT = new Date('2025-01-02T03:00:00.000Z');

function asset(id: number, symbol: string, type: AssetType, sourceId: string): AssetRow {
  return {
    id,
    type,
    symbol,
    name: symbol,
    market: type === 'STOCK' ? 'US' : null,
    stockCode: type === 'STOCK' ? `${symbol}-US` : null,
    currency: 'USD',
    sector: null,
    industry: null,
    categories: [],
    coingeckoId: type === 'CRYPTO' ? sourceId : null,
    yahooSymbol: type === 'CRYPTO' ? null : sourceId,
    binancePair: null,
    marketCapRank: null,
    listed: true,
    ...NO_FIGURES,
    price: '100',
    sourceUpdatedAt: null,
    refreshedAt: null,
  };
}

const ASSETS = [asset(1, 'BTC', 'CRYPTO', 'bitcoin'), asset(2, 'TSLA', 'STOCK', 'TSLA'), asset(3, 'USDJPY', 'FOREX', 'JPY=X')];

const vendorTicker = (
  venue: string,
  pair: string,
  marketType: VenueTicker['marketType'],
  volume24h: string | null,
  venueKind: VenueTicker['venueKind'] = null,
) => ({
  venue,
  pair,
  marketType,
  price: '97000',
  volume24h,
  venueKind,
});

/** What the crypto vendor lists for bitcoin, Hyperliquid's markets among them (twice: its perp and its spot pair). */
const BTC_VENDOR_TICKERS: VenueTicker[] = [
  vendorTicker('Bybit', 'BTC/USDT', 'perp', null),
  vendorTicker('Binance', 'BTC/USDT', 'spot', '5000000000'),
  vendorTicker('Hyperliquid', 'BTC/USD', 'perp', '1000000000', 'dex'),
  vendorTicker('Hyperliquid (Spot)', 'UBTC/USDC', 'spot', '20000000'),
  vendorTicker('OKX', 'BTC/USDT', 'perp', '3000000000'),
  vendorTicker('Uniswap V3 (Ethereum)', 'WBTC/USDT', 'spot', '200000000'),
  vendorTicker('CME', 'BTC/USD', 'futures', null),
  vendorTicker('Kraken', 'BTC/USD', 'spot', '3000000000.0'),
];

const HL_BTC: HlVenueTicker[] = [
  { pair: 'BTC/USDC', marketType: 'perp', price: '97010', volume24h: '1500000000', updatedAt: HL_UPDATED_AT },
  { pair: 'UBTC/USDC', marketType: 'spot', price: '96990', volume24h: '30000000', updatedAt: HL_UPDATED_AT },
];

function candles(count: number): Candle[] {
  return Array.from({ length: count }, (_, i) => ({
    openTime: new Date(Date.UTC(2025, 0, 1) + i * HOUR_MS).toISOString(),
    open: String(i),
    high: String(i + 1),
    low: String(i),
    close: String(i + 0.5),
    volume: null,
  }));
}

function fakeVendor(name: string, assetTypes: AssetType[]) {
  const getTickers = jest.fn(async () => (assetTypes.includes('CRYPTO') ? BTC_VENDOR_TICKERS : []));
  const getCandles = jest.fn(async (_params: { sourceId: string; interval: string; limit: number }) => candles(120));
  const vendor = { name, assetTypes, maxQuotesPerCall: 50, getTickers, getCandles } as unknown as MarketDataProvider;
  return { vendor, getTickers, getCandles };
}

function setup() {
  const crypto = fakeVendor('coingecko', ['CRYPTO']);
  const tradfi = fakeVendor('yahoo', ['STOCK', 'ETF', 'FOREX', 'COMMODITY']);
  const assets = { resolve: jest.fn(async (symbol: string) => ASSETS.find((a) => a.symbol === symbol)!) } as unknown as AssetsService;
  const tickersOf = jest.fn(async (symbol: string) => (symbol === 'BTC' ? HL_BTC : []));
  const hyperliquid = { tickersOf } as unknown as HlVenueService;
  const sut = new MarketFeedsService(assets, new MarketDataRouter([crypto.vendor, tradfi.vendor]), hyperliquid, new UpstreamCacheFactory(new MemoryKvStore()));
  return { sut, crypto, tradfi, tickersOf };
}

const tickersQuery = (query: Partial<TickersQueryDto> = {}) => Object.assign(new TickersQueryDto(), query);
const klinesQuery = (query: Partial<KlinesQueryDto>) => Object.assign(new KlinesQueryDto(), query);

interface TickerPage {
  items: TickerDto[];
  page: number;
  limit: number;
  total: number;
}
const pageOf = (aged: { data: { json: string } }) => JSON.parse(aged.data.json) as TickerPage;
const venuesOf = (page: TickerPage) => page.items.map((t) => `${t.venue} ${t.pair} ${t.marketType}`);

describe(MarketFeedsService.name, () => {
  describe('venueTickers', () => {
    it("drops the vendor's copy of Hyperliquid for our own markets, and sorts all by volume, unknown last", async () => {
      const { sut, tickersOf } = setup();

      const page = pageOf(await sut.venueTickers('BTC', tickersQuery({ limit: 100 })));

      expect(tickersOf).toHaveBeenCalledWith('BTC', 'crypto');
      expect(venuesOf(page)).toEqual([
        'Binance BTC/USDT spot',
        'Kraken BTC/USD spot',
        'OKX BTC/USDT perp',
        'Hyperliquid BTC/USDC perp',
        'Uniswap V3 (Ethereum) WBTC/USDT spot',
        'Hyperliquid UBTC/USDC spot',
        'Bybit BTC/USDT perp',
        'CME BTC/USD futures',
      ]);
      expect(page.items[3]).toEqual({ pair: 'BTC/USDC', venue: 'Hyperliquid', venueKind: 'dex', marketType: 'perp', price: '97010', volume24h: '1500000000' });
      expect(page.total).toBe(8);
    });

    it('keeps the venues of a kind: dex for on-chain pools and Hyperliquid, cex for the rest', async () => {
      const { sut } = setup();

      const dex = pageOf(await sut.venueTickers('BTC', tickersQuery({ venue: 'dex' })));
      const cex = pageOf(await sut.venueTickers('BTC', tickersQuery({ venue: 'cex' })));

      expect(venuesOf(dex)).toEqual(['Hyperliquid BTC/USDC perp', 'Uniswap V3 (Ethereum) WBTC/USDT spot', 'Hyperliquid UBTC/USDC spot']);
      expect(dex.items.every((t) => t.venueKind === 'dex')).toBe(true);
      expect(venuesOf(cex)).toEqual(['Binance BTC/USDT spot', 'Kraken BTC/USD spot', 'OKX BTC/USDT perp', 'Bybit BTC/USDT perp', 'CME BTC/USD futures']);
    });

    it('keeps the markets of a type, alone or with a venue kind', async () => {
      const { sut } = setup();

      const perps = pageOf(await sut.venueTickers('BTC', tickersQuery({ marketType: 'perp' })));
      const cexPerps = pageOf(await sut.venueTickers('BTC', tickersQuery({ venue: 'cex', marketType: 'perp' })));
      const futures = pageOf(await sut.venueTickers('BTC', tickersQuery({ marketType: 'futures' })));

      expect(venuesOf(perps)).toEqual(['OKX BTC/USDT perp', 'Hyperliquid BTC/USDC perp', 'Bybit BTC/USDT perp']);
      expect(venuesOf(cexPerps)).toEqual(['OKX BTC/USDT perp', 'Bybit BTC/USDT perp']);
      expect([venuesOf(futures), futures.total]).toEqual([['CME BTC/USD futures'], 1]);
    });

    it('pages the sorted list, with the total of every matching market', async () => {
      const { sut } = setup();

      const second = pageOf(await sut.venueTickers('BTC', tickersQuery({ page: 2, limit: 3 })));
      const last = pageOf(await sut.venueTickers('BTC', tickersQuery({ page: 3, limit: 3 })));
      const beyond = pageOf(await sut.venueTickers('BTC', tickersQuery({ page: 4, limit: 3 })));

      expect(second).toMatchObject({ page: 2, limit: 3, total: 8 });
      expect(venuesOf(second)).toEqual(['Hyperliquid BTC/USDC perp', 'Uniswap V3 (Ethereum) WBTC/USDT spot', 'Hyperliquid UBTC/USDC spot']);
      expect(venuesOf(last)).toEqual(['Bybit BTC/USDT perp', 'CME BTC/USD futures']);
      expect([beyond.items, beyond.total]).toEqual([[], 8]);
    });

    it('asks the vendor once for the pages and filters of one asset', async () => {
      const { sut, crypto } = setup();

      await sut.venueTickers('BTC', tickersQuery({ page: 1, limit: 3 }));
      await sut.venueTickers('BTC', tickersQuery({ page: 2, limit: 3 }));
      await sut.venueTickers('BTC', tickersQuery({ venue: 'dex' }));

      expect(crypto.getTickers).toHaveBeenCalledTimes(1);
      expect(crypto.getTickers).toHaveBeenCalledWith({ sourceId: 'bitcoin', symbol: 'BTC', binancePair: undefined, signal: expect.any(AbortSignal) });
    });

    it("dates the answer by its oldest part: here Hyperliquid's snapshot", async () => {
      const { sut } = setup();

      const aged = await sut.venueTickers('BTC', tickersQuery());

      expect(aged.asOf).toBe(HL_UPDATED_AT.getTime());
    });

    it("asks Hyperliquid for a stock's HIP-3 perps, and not at all for an FX pair", async () => {
      const { sut, tickersOf, tradfi } = setup();

      await sut.venueTickers('TSLA', tickersQuery());
      await sut.venueTickers('USDJPY', tickersQuery());

      expect(tickersOf.mock.calls).toEqual([['TSLA', 'listed']]);
      expect(tradfi.getTickers).toHaveBeenCalledTimes(2);
    });
  });

  describe('klines', () => {
    const klinesOf = (aged: { data: { json: string } }) => JSON.parse(aged.data.json) as KlineDto[];

    it('fetches the most bars once per asset and interval, and serves each limit from the end of them, ascending', async () => {
      const { sut, crypto } = setup();

      const ten = klinesOf(await sut.klines('BTC', klinesQuery({ interval: 'H1', limit: 10 })));
      const fifty = klinesOf(await sut.klines('BTC', klinesQuery({ interval: 'H1', limit: 50 })));

      expect(crypto.getCandles).toHaveBeenCalledTimes(1);
      expect(crypto.getCandles).toHaveBeenCalledWith(expect.objectContaining({ sourceId: 'bitcoin', interval: 'H1', limit: 500 }));
      expect(ten.map((k) => k.open)).toEqual(
        candles(120)
          .slice(-10)
          .map((c) => c.open),
      );
      expect(fifty).toHaveLength(50);
      expect(fifty.slice(-10)).toEqual(ten);
      expect(ten[0]).toEqual({ assetId: 1, interval: 'H1', ...candles(120)[110] });
    });

    it('fetches another interval or asset on its own', async () => {
      const { sut, crypto, tradfi } = setup();

      await sut.klines('BTC', klinesQuery({ interval: 'H1', limit: 10 }));
      await sut.klines('BTC', klinesQuery({ interval: 'D1', limit: 10 }));
      await sut.klines('TSLA', klinesQuery({ interval: 'D1', limit: 10 }));

      expect(crypto.getCandles.mock.calls.map(([params]) => params.interval)).toEqual(['H1', 'D1']);
      expect(tradfi.getCandles).toHaveBeenCalledWith(expect.objectContaining({ sourceId: 'TSLA', interval: 'D1', limit: 500 }));
    });

    it('serves every bar there is when fewer than the limit exist', async () => {
      const { sut } = setup();

      expect(klinesOf(await sut.klines('BTC', klinesQuery({ interval: 'H1', limit: 500 })))).toHaveLength(120);
    });
  });
});
