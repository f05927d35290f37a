import { derivativePair, parseCoinTickers, parseDerivatives } from './coingecko-tickers.schema';
import { vendorFixture } from '../../../test/support/vendor-fixtures';

// Mutated freely by the shape tests, so read as untyped JSON.
const fixture = (name: string): any => vendorFixture('coingecko', name);

describe(parseCoinTickers.name, () => {
  it('maps every recorded bitcoin ticker to a USD-priced spot ticker', () => {
    const tickers = parseCoinTickers(fixture('coins-bitcoin-tickers.2021.json'));
    expect(tickers).toHaveLength(100);
    expect(tickers[0]).toEqual({
      pair: 'BTC/USDT',
      venue: 'FTX.US',
      venueKind: null,
      venueId: 'ftx_us',
      marketType: 'spot',
      price: '48771',
      volume24h: '5757490',
    });
    expect(tickers.find((ticker) => ticker.venue === 'Kraken')).toMatchObject({ pair: 'XBT/EUR', venueId: 'kraken' });
    expect(tickers.filter((ticker) => ticker.venue === 'Serum DEX').map((ticker) => ticker.pair)).toEqual(['BTC/USDT', 'BTC/USDC']);
  });

  it('drops tickers flagged stale or anomalous and those without a USD price', () => {
    const body = fixture('coins-bitcoin-tickers.2021.json');
    body.tickers[0].is_stale = true;
    body.tickers[1].is_anomaly = true;
    delete body.tickers[2].converted_last.usd;
    const tickers = parseCoinTickers(body);
    expect(tickers).toHaveLength(97);
    expect(tickers[0]).toMatchObject({ venue: 'Bitfinex', pair: 'BTC/USD' });
  });

  it('keeps a ticker without a USD volume, with volume null', () => {
    const body = fixture('coins-bitcoin-tickers.2021.json');
    body.tickers[0].converted_volume = null;
    expect(parseCoinTickers(body)[0]).toMatchObject({ price: '48771', volume24h: null });
  });

  it('returns an empty page as empty and refuses flags of the wrong type', () => {
    expect(parseCoinTickers({ name: 'Bitcoin', tickers: [] })).toEqual([]);
    const body = fixture('coins-bitcoin-tickers.2021.json');
    body.tickers[4].is_stale = 'no';
    expect(() => parseCoinTickers(body)).toThrow('coingecko: coins/tickers.tickers[4].is_stale: expected boolean, got string');
  });
});

describe(parseDerivatives.name, () => {
  it('maps the recorded perpetuals with the index each tracks', () => {
    const contracts = parseDerivatives(fixture('derivatives.excerpt-first-60.2021.json'));
    expect(contracts).toHaveLength(60);
    expect(contracts[0]).toEqual({
      pair: 'BTC/USDT',
      venue: 'Binance (Futures)',
      venueKind: null,
      marketType: 'perp',
      price: '43692.79',
      volume24h: '28083676311.186348',
      indexId: 'BTC',
      contractSymbol: 'BTCUSDT',
      indexPrice: '43782.07332908',
      fundingRate: '0.021023',
      openInterest: '1843486360.07',
      expiresAt: null,
    });
    expect(contracts.filter((contract) => contract.indexId === 'BTC')).toHaveLength(16);
  });

  it('reads a dated future and skips a contract type it does not know', () => {
    const [perpetual] = fixture('derivatives.excerpt-first-60.2021.json');
    const future = { ...perpetual, symbol: 'BTCUSDT_210625', contract_type: 'futures', expired_at: 1624608000 };
    const option = { ...perpetual, contract_type: 'option' };
    const contracts = parseDerivatives([future, option]);
    expect(contracts).toEqual([
      expect.objectContaining({ marketType: 'futures', pair: 'BTC/USDT', contractSymbol: 'BTCUSDT_210625', expiresAt: '2021-06-25T08:00:00.000Z' }),
    ]);
  });

  it('returns an empty list as empty and refuses a price it cannot read', () => {
    expect(parseDerivatives([])).toEqual([]);
    const body = fixture('derivatives.excerpt-first-60.2021.json');
    body[3].price = 'n/a';
    expect(() => parseDerivatives(body)).toThrow('coingecko: derivatives[3].price: expected number, got string');
  });
});

describe(derivativePair.name, () => {
  it.each([
    ['BTCUSDT', 'BTC', 'BTC/USDT'],
    ['BTCUSD_PERP', 'BTC', 'BTC/USD'],
    ['DOGE_USDT', 'DOGE', 'DOGE/USDT'],
    ['TRX-USDT', 'TRX', 'TRX/USDT'],
    ['ETH-PERP', 'ETH', 'ETH/USD'],
    ['BTC-PERPETUAL', 'BTC', 'BTC/USD'],
    ['BTCUSDT_210625', 'BTC', 'BTC/USDT'],
    ['ETH-USD-20210625', 'ETH', 'ETH/USD'],
  ])('splits %s on index %s as %s', (symbol, indexId, pair) => {
    expect(derivativePair(symbol, indexId)).toBe(pair);
  });

  it.each([
    ['ETHF0:USTF0', 'ETH'],
    ['XBTUSD', 'BXBT'],
    ['BTC-USD-SWAP', 'OkexSwap-BTC'],
    ['BTCPFC', 'BTCPFC'],
    ['ETHUSDT_QUANTO_PERP', 'ETH'],
    ['BTC_USDT_BZ', 'BTC'],
  ])('keeps %s (index %s) as the venue writes it', (symbol, indexId) => {
    expect(derivativePair(symbol, indexId)).toBe(symbol);
  });
});
