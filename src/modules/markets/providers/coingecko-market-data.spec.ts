import { MemoryKvStore } from '../../../infra/kv/memory-kv.store';
import { BinanceKlinesClient, BinanceUnknownSymbolError } from '../../../providers/binance/binance-klines.client';
import { CoingeckoClient } from '../../../providers/coingecko/coingecko.client';
import { DerivativeTicker } from '../../../providers/coingecko/coingecko.types';
import { UpstreamCacheFactory } from '../../../providers/kit/upstream-cache';
import { UpstreamError } from '../../../providers/kit/upstream.error';
import { Candle, MarketQuote } from '../../../providers/market-data-provider';
import { assetOfIndex, CoingeckoMarketData } from './coingecko-market-data';
import { MarketDataUnsupportedError } from './market-data-unsupported.error';
import { marketQuote } from '../../../../test/support/market-quotes';

function candle(openTime: string, close: string): Candle {
  return { openTime, open: close, high: close, low: close, close, volume: '1' };
}

function quote(sourceId: string, symbol: string, price: string): MarketQuote {
  return marketQuote(sourceId, { symbol, name: symbol, type: 'CRYPTO', currency: 'USD', price });
}

function derivative(indexId: string): DerivativeTicker {
  return {
    pair: `${indexId}/USD`,
    venue: 'BitMEX',
    venueKind: null,
    marketType: 'perp',
    price: '1',
    volume24h: null,
    indexId,
    contractSymbol: `${indexId}USD`,
    indexPrice: null,
    fundingRate: null,
    openInterest: null,
    expiresAt: null,
  };
}

describe(CoingeckoMarketData.name, () => {
  let coingecko: jest.Mocked<Pick<CoingeckoClient, 'coinsMarkets' | 'coinTickers' | 'derivatives' | 'ohlc' | 'global'>>;
  let binance: jest.Mocked<Pick<BinanceKlinesClient, 'klines'>>;
  let sut: CoingeckoMarketData;

  beforeEach(() => {
    coingecko = { coinsMarkets: jest.fn(), coinTickers: jest.fn(), derivatives: jest.fn(), ohlc: jest.fn(), global: jest.fn() };
    binance = { klines: jest.fn() };
    sut = new CoingeckoMarketData(
      coingecko as unknown as CoingeckoClient,
      binance as unknown as BinanceKlinesClient,
      new UpstreamCacheFactory(new MemoryKvStore()),
    );
  });

  it('asks for quotes in chunks of 250 ids', async () => {
    coingecko.coinsMarkets.mockImplementation(async ({ ids }) => ids!.map((id) => quote(id, 'X', '1')));
    const ids = Array.from({ length: 260 }, (_, k) => `coin-${k}`);
    expect(await sut.getQuotes({ sourceIds: ids })).toHaveLength(260);
    expect(coingecko.coinsMarkets.mock.calls.map(([params]) => params.ids!.length)).toEqual([250, 10]);
  });

  it('uses the catalogue Binance pair without asking CoinGecko', async () => {
    binance.klines.mockResolvedValue([candle('2026-01-01T00:00:00.000Z', '100')]);
    expect(await sut.getCandles({ sourceId: 'bitcoin', interval: 'D1', limit: 1, binancePair: 'BTCUSDT' })).toHaveLength(1);
    expect(binance.klines).toHaveBeenCalledWith({ symbol: 'BTCUSDT', interval: '1d', limit: 1, signal: undefined });
    expect(coingecko.coinsMarkets).not.toHaveBeenCalled();
  });

  it('falls back to merged CoinGecko ohlc when Binance has no such pair', async () => {
    coingecko.coinsMarkets.mockResolvedValue([quote('fartcoin', 'FARTCOIN', '1')]);
    binance.klines.mockRejectedValue(new BinanceUnknownSymbolError('FARTCOINUSDT'));
    coingecko.ohlc.mockResolvedValue([candle('2026-01-01T00:00:00.000Z', '1'), candle('2026-01-01T00:30:00.000Z', '2')]);
    const candles = await sut.getCandles({ sourceId: 'fartcoin', interval: 'H1', limit: 5 });
    expect(binance.klines).toHaveBeenCalledWith(expect.objectContaining({ symbol: 'FARTCOINUSDT' }));
    expect(coingecko.ohlc).toHaveBeenCalledWith('fartcoin', 1, undefined);
    expect(candles).toEqual([{ openTime: '2026-01-01T00:00:00.000Z', open: '1', high: '2', low: '1', close: '2', volume: null }]);
  });

  it('takes a guessed pair priced far from CoinGecko for another coin and uses CoinGecko', async () => {
    coingecko.coinsMarkets.mockResolvedValue([quote('fake-btc', 'BTC', '0.01')]);
    binance.klines.mockResolvedValue([candle('2026-01-01T00:00:00.000Z', '90000')]);
    coingecko.ohlc.mockResolvedValue([]);
    expect(await sut.getCandles({ sourceId: 'fake-btc', interval: 'D1', limit: 5 })).toEqual([]);
    expect(coingecko.ohlc).toHaveBeenCalledWith('fake-btc', 30, undefined);
  });

  it('checks a guessed pair against the price the caller passed, without asking CoinGecko', async () => {
    binance.klines.mockResolvedValue([candle('2026-01-01T00:00:00.000Z', '101')]);
    expect(await sut.getCandles({ sourceId: 'bitcoin', interval: 'H1', limit: 1, symbol: 'btc', price: '100' })).toHaveLength(1);
    expect(binance.klines).toHaveBeenCalledWith(expect.objectContaining({ symbol: 'BTCUSDT' }));
    expect(coingecko.coinsMarkets).not.toHaveBeenCalled();
  });

  it('tells DEX venues from CEX ones on every ticker', async () => {
    coingecko.coinTickers.mockResolvedValue([
      { pair: 'WBTC/USDC', venue: 'Uniswap V3 (Ethereum)', venueId: 'uniswap_v3', venueKind: null, marketType: 'spot', price: '1', volume24h: '1' },
      { pair: 'BTC/USDT', venue: 'Binance', venueId: 'binance', venueKind: null, marketType: 'spot', price: '1', volume24h: '1' },
    ]);
    coingecko.derivatives.mockResolvedValue([]);
    const tickers = await sut.getTickers({ sourceId: 'bitcoin', symbol: 'BTC' });
    expect(tickers.map((t) => t.venueKind)).toEqual(['dex', 'cex']);
  });

  it('lets an outage of Binance fail rather than serve volumeless candles', async () => {
    binance.klines.mockRejectedValue(new UpstreamError({ provider: 'binance', kind: 'http', upstreamStatus: 503, message: 'down' }));
    await expect(sut.getCandles({ sourceId: 'bitcoin', interval: 'H1', limit: 5, binancePair: 'BTCUSDT' })).rejects.toBeInstanceOf(UpstreamError);
    expect(coingecko.ohlc).not.toHaveBeenCalled();
  });

  it('adds the derivatives on the coin index to its spot tickers, loading the list once', async () => {
    coingecko.coinTickers.mockResolvedValue([]);
    coingecko.derivatives.mockResolvedValue([derivative('XBT'), derivative('BTC'), derivative('ETH'), derivative('BXBT')]);
    const first = await sut.getTickers({ sourceId: 'bitcoin', symbol: 'btc' });
    await sut.getTickers({ sourceId: 'ethereum', symbol: 'ETH' });
    expect(first.map((ticker) => ticker.pair)).toEqual(['XBT/USD', 'BTC/USD']);
    expect(coingecko.derivatives).toHaveBeenCalledTimes(1);
  });

  it('refuses other asset types and search', async () => {
    await expect(sut.listQuotes({ type: 'STOCK', page: 1, perPage: 10 })).rejects.toBeInstanceOf(MarketDataUnsupportedError);
    await expect(sut.search()).rejects.toThrow('market data: search is not offered by coingecko');
  });

  it('pages the catalogue up to the asked size', async () => {
    coingecko.coinsMarkets.mockImplementation(async ({ page, perPage }) => Array.from({ length: perPage }, (_, k) => quote(`c${page}-${k}`, 'C', '1')));
    const entries = await sut.listCatalogue({ type: 'CRYPTO', limit: 300 });
    expect(entries).toHaveLength(300);
    expect(entries[0]).toEqual({ sourceId: 'c1-0', symbol: 'C', name: 'C', type: 'CRYPTO', market: null });
  });
});

describe(assetOfIndex.name, () => {
  it('reads XBT as BTC', () => {
    expect(assetOfIndex('xbt')).toBe('BTC');
    expect(assetOfIndex('ETH')).toBe('ETH');
  });
});
