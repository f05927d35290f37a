import { UpstreamError } from '../kit/upstream.error';
import { parseCoinsMarkets, parseGlobal, parseOhlc } from './coingecko-markets.schema';
import { asJsonDecimal } from './coingecko-reader';
import { shapeErrorOf, vendorFixture } from '../../../test/support/vendor-fixtures';

// Fixtures are mutated freely by shape tests, so they are read as untyped JSON.
const fixture = (name: string): any => vendorFixture('coingecko', name);

describe(asJsonDecimal.name, () => {
  it('writes exponent numbers from the bodies as plain decimals', () => {
    const totals = fixture('global.2025.json').data;
    expect(asJsonDecimal(totals.total_volume.vnd, 'vnd')).toBe('5117253022555269');
    expect(asJsonDecimal(totals.total_market_cap.idr, 'idr')).toBe('42724884822537020');
    expect(asJsonDecimal(1.0904e-8, 'price')).toBe('0.000000010904');
    expect(asJsonDecimal(2.1122e-14, 'atl')).toBe('0.000000000000021122');
  });

  it('keeps plain numbers and decimal strings as written, and refuses anything else', () => {
    expect(asJsonDecimal(21000000.0, 'supply')).toBe('21000000');
    expect(asJsonDecimal('43692.790', 'price')).toBe('43692.79');
    expect(() => asJsonDecimal('1e5', 'price')).toThrow('price: expected number, got string');
    expect(() => asJsonDecimal(null, 'price')).toThrow(UpstreamError);
  });
});

describe(parseCoinsMarkets.name, () => {
  it('maps a bitcoin item asked without percentage or sparkline parameters', () => {
    const [bitcoin] = parseCoinsMarkets(fixture('coins-markets.ids-bitcoin.2021.json'));
    expect(bitcoin).toEqual({
      sourceId: 'bitcoin',
      currency: 'USD',
      symbol: 'BTC',
      name: 'Bitcoin',
      type: 'CRYPTO',
      market: null,
      price: '49053',
      change1h: null,
      change24h: '-4.37931',
      change7d: null,
      volume24h: '61679663434',
      marketCap: '917825524991',
      high24h: '51300',
      low24h: '48019',
      sparkline7d: [],
      updatedAt: '2021-05-15T15:59:43.867Z',
    });
  });

  it('reads the 1 h, 24 h and 7 d changes, tiny prices and null figures of a category page', () => {
    const quotes = parseCoinsMarkets(fixture('coins-markets.category-analytics.pct-1h-24h-7d.2022.json'));
    expect(quotes).toHaveLength(16);
    const byId = new Map(quotes.map((quote) => [quote.sourceId, quote]));

    expect(byId.get('the-graph')).toMatchObject({
      symbol: 'GRT',
      price: '0.083973',
      change1h: '0.003534043601229122',
      change24h: '1.0138818109436027',
      change7d: '5.320238090443718',
    });
    expect(byId.get('dogebonk')).toMatchObject({ price: '0.000000010904', high24h: '0.000000011326', low24h: '0.000000010851' });
    expect(byId.get('chartex')).toMatchObject({ high24h: null, low24h: null, change1h: null, change24h: null, change7d: '17.21545913514931' });
    expect(byId.get('moontools')).toMatchObject({ marketCap: '0', change7d: null });
  });

  it('reads a page priced in another currency the same way', () => {
    const quotes = parseCoinsMarkets(fixture('coins-markets.ids-bitcoin-ethereum.vs-eth.2021.json'));
    expect(quotes.map((quote) => [quote.symbol, quote.price])).toEqual([
      ['BTC', '12.666344'],
      ['ETH', '1'],
    ]);
  });

  it('reads the 7-day sparkline oldest first, leaving gaps out', () => {
    const [item] = fixture('coins-markets.ids-bitcoin.2021.json');
    item.sparkline_in_7d = { price: [49000.5, null, 5e-7, 51234] };
    expect(parseCoinsMarkets([item])[0].sparkline7d).toEqual(['49000.5', '0.0000005', '51234']);
  });

  it('returns an empty page as empty', () => {
    expect(parseCoinsMarkets([])).toEqual([]);
  });

  it('refuses the 422 error body rather than returning part of it', () => {
    const error = shapeErrorOf(() => parseCoinsMarkets(fixture('error-422.coins-markets-missing-vs_currency.2021.json')));
    expect(error.message).toBe('coingecko: coins/markets: expected array, got object');
  });

  it('names the offending path without its value', () => {
    const body = fixture('coins-markets.ids-bitcoin.2021.json');
    body[0].current_price = 'n/a';
    const error = shapeErrorOf(() => parseCoinsMarkets(body));
    expect(error.message).toBe('coingecko: coins/markets[0].current_price: expected number, got string');
  });
});

describe(parseGlobal.name, () => {
  it('reads the 2025 body in USD', () => {
    expect(parseGlobal(fixture('global.2025.json'))).toEqual({
      totalMarketCapUsd: '2515268352188.766',
      totalVolume24hUsd: '198293501804.3288',
      btcDominance: '60.70858347681936',
      ethDominance: '7.155942749893206',
      marketCapChange24h: '-9.999293796813587',
      activeCryptocurrencies: 17111,
      markets: 1297,
      updatedAt: '2025-04-07T11:28:53.000Z',
    });
  });

  it('reads the 2021 body', () => {
    expect(parseGlobal(fixture('global.2021.json'))).toMatchObject({
      totalMarketCapUsd: '2142953338976.9612',
      totalVolume24hUsd: '290548797852.028',
      btcDominance: '38.259132842486686',
      activeCryptocurrencies: 7362,
      markets: 616,
      updatedAt: '2021-05-18T13:55:59.000Z',
    });
  });

  it('keeps the optional figures null when absent', () => {
    const body = fixture('global.2025.json');
    delete body.data.market_cap_percentage;
    delete body.data.updated_at;
    body.data.markets = null;
    expect(parseGlobal(body)).toMatchObject({ btcDominance: null, ethDominance: null, markets: null, updatedAt: null });
  });

  it('refuses a body without the USD total', () => {
    const body = fixture('global.2025.json');
    delete body.data.total_market_cap.usd;
    expect(shapeErrorOf(() => parseGlobal(body)).message).toBe('coingecko: global.data.total_market_cap.usd: expected number, got nothing');
  });
});

describe(parseOhlc.name, () => {
  it('turns close-stamped 4-hour rows into ascending candles without volume', () => {
    const candles = parseOhlc(fixture('coins-bitcoin-ohlc.days-7.2021.json'), 7);
    expect(candles).toHaveLength(42);
    expect(candles[0]).toEqual({
      openTime: '2021-05-08T16:00:00.000Z',
      open: '57945.79',
      high: '59122.18',
      low: '57945.79',
      close: '59122.18',
      volume: null,
    });
    expect(candles[41]).toMatchObject({ openTime: '2021-05-15T12:00:00.000Z', close: '49675.91' });
    expect(candles.every((candle, i) => i === 0 || candle.openTime > candles[i - 1].openTime)).toBe(true);
  });

  it('opens a one-day candle 30 minutes before its stamp and sorts rows given out of order', () => {
    const candles = parseOhlc(
      [
        [1620505800000, 2, 3, 1, 2.5],
        [1620504000000, 1, 2, 0.5, 2],
      ],
      1,
    );
    expect(candles.map((candle) => candle.openTime)).toEqual(['2021-05-08T19:30:00.000Z', '2021-05-08T20:00:00.000Z']);
  });

  it('returns no rows as no candles and refuses a short row or a repeated bar', () => {
    expect(parseOhlc([], 7)).toEqual([]);
    expect(shapeErrorOf(() => parseOhlc([[1620504000000, 1, 2, 0.5]], 7)).message).toBe('coingecko: coins/ohlc[0]: expected at least 5 elements, got 4');
    const row = [1620504000000, 1, 2, 0.5, 1];
    expect(shapeErrorOf(() => parseOhlc([row, row], 7)).message).toContain('two candles open at 2021-05-08T16:00:00.000Z');
  });
});
