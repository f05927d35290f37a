import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseRwaDetail, parseRwasMarkets } from './coingecko-rwas.schema';
import { shapeErrorOf } from '../../../test/support/vendor-fixtures';

/** Bodies written from the SDK types, no recorded ones existing (test/fixtures-derived/coingecko/README.md). */
const derived = (name: string): any => JSON.parse(readFileSync(resolve(__dirname, '../../../test/fixtures-derived/coingecko', name), 'utf8'));

describe(parseRwasMarkets.name, () => {
  it('maps an RWA row to its tokens aggregate market, symbol upper-cased', () => {
    const [gold] = parseRwasMarkets(derived('rwas-markets.asset_type-commodity.sdk-derived.json'));
    expect(gold).toEqual({
      id: 'gold',
      name: 'Gold',
      symbol: 'XAU',
      assetType: 'commodity',
      tokenPrice: '4168.52',
      tokenMarketCap: '3412876543',
      tokenVolume24h: '187654321',
      tokenChange24h: '-0.6153201847',
      updatedAt: '2026-09-23T15:00:12.345Z',
    });
  });

  it('keeps null and absent figures null, and writes exponent figures as plain decimals', () => {
    const [, silver] = parseRwasMarkets(derived('rwas-markets.asset_type-commodity.sdk-derived.json'));
    expect(silver).toMatchObject({ tokenPrice: '54.11', tokenVolume24h: null, tokenChange24h: null });
    const [tesla, apple] = parseRwasMarkets(derived('rwas-markets.asset_type-stock.sdk-derived.json'));
    expect(tesla).toMatchObject({ symbol: 'TSLA', assetType: 'stock', tokenChange24h: '1.2641701112' });
    expect(apple).toMatchObject({ symbol: 'AAPL', tokenChange24h: '0.000052', tokenMarketCap: '30098765' });
  });

  it('returns an empty page as empty', () => {
    expect(parseRwasMarkets([])).toEqual([]);
  });

  it('refuses a body of another shape, naming the field', () => {
    expect(shapeErrorOf(() => parseRwasMarkets({ error: 'Not Found' })).message).toBe('coingecko: rwas/markets: expected array, got object');
    const rows = derived('rwas-markets.asset_type-stock.sdk-derived.json');
    rows[1].tokenized_market_data.current_price = '293.61 USD';
    expect(shapeErrorOf(() => parseRwasMarkets(rows)).message).toBe(
      'coingecko: rwas/markets[1].tokenized_market_data.current_price: expected number, got string',
    );
    const noMarket = derived('rwas-markets.asset_type-stock.sdk-derived.json');
    delete noMarket[0].tokenized_market_data;
    expect(shapeErrorOf(() => parseRwasMarkets(noMarket)).message).toContain('rwas/markets[0].tokenized_market_data: expected object, got nothing');
    const bond = derived('rwas-markets.asset_type-stock.sdk-derived.json');
    bond[0].asset_type = 'bond';
    expect(shapeErrorOf(() => parseRwasMarkets(bond)).message).toContain('rwas/markets[0].asset_type: expected "stock" or "etf" or "commodity"');
  });
});

describe(parseRwaDetail.name, () => {
  it('reads the tokens as coin ids with upper-cased symbols', () => {
    expect(parseRwaDetail(derived('rwas-id.gold.tokens-true.sdk-derived.json'))).toEqual({
      id: 'gold',
      name: 'Gold',
      symbol: 'XAU',
      slug: 'gold',
      assetType: 'commodity',
      tokens: [
        { coinId: 'tether-gold', name: 'Tether Gold', symbol: 'XAUT' },
        { coinId: 'pax-gold', name: 'PAX Gold', symbol: 'PAXG' },
      ],
      updatedAt: '2026-09-23T15:00:12.345Z',
    });
  });

  it('ignores the market data and platforms it does not use', () => {
    const tesla = parseRwaDetail(derived('rwas-id.tesla.tokens-and-market-data.sdk-derived.json'));
    expect(tesla.tokens.map((token) => token.coinId)).toEqual(['tesla-xstock', 'tesla-ondo-tokenized-stock']);
  });

  it('leaves out tokens without a coin id and repeats, and lists none when tokens were not sent', () => {
    const body = derived('rwas-id.gold.tokens-true.sdk-derived.json');
    body.tokens.push({ name: 'Unlinked Gold', symbol: 'ugld' }, { ...body.tokens[0] });
    expect(parseRwaDetail(body).tokens.map((token) => token.coinId)).toEqual(['tether-gold', 'pax-gold']);
    delete body.tokens;
    body.web_slug = '';
    expect(parseRwaDetail(body)).toMatchObject({ tokens: [], slug: 'gold' });
  });

  it('refuses a body of another shape', () => {
    expect(shapeErrorOf(() => parseRwaDetail([])).message).toBe('coingecko: rwas/id: expected object, got array');
    const body = derived('rwas-id.gold.tokens-true.sdk-derived.json');
    body.tokens = { 'tether-gold': 'Tether Gold' };
    expect(shapeErrorOf(() => parseRwaDetail(body)).message).toBe('coingecko: rwas/id.tokens: expected array, got object');
    const numericId = derived('rwas-id.gold.tokens-true.sdk-derived.json');
    numericId.tokens[1].id = 10481;
    expect(shapeErrorOf(() => parseRwaDetail(numericId)).message).toBe('coingecko: rwas/id.tokens[1].id: expected string, got number');
  });
});
