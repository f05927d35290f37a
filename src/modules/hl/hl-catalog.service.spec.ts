import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { CoinIndex, HlCatalog, MAX_OUTCOMES_NAMED } from './hl-catalog.service';
import { MarketRow } from './hl-markets.repository';

function market(fields: Partial<MarketRow> & Pick<MarketRow, 'market' | 'coin'>): MarketRow {
  return { dex: '', markPx: null, midPx: null, outcomeId: null, outcomeSide: null, outcomeName: null, ...fields };
}

describe(CoinIndex.name, () => {
  const sut = new CoinIndex(['BTC', 'xyz:TSLA', 'kPEPE', 'KPEPE'], 'a perp symbol');

  it('answers the canonical spelling, exactly or ignoring case', () => {
    expect(sut.resolve('BTC')).toBe('BTC');
    expect(sut.resolve('btc')).toBe('BTC');
    expect(sut.resolve('XYZ:tsla')).toBe('xyz:TSLA');
  });

  it('needs the exact spelling when two coins differ only by case', () => {
    expect(sut.resolve('kPEPE')).toBe('kPEPE');
    expect(() => sut.resolve('kpepe')).toThrow(/^coin: "kpepe" matches several coins/);
  });

  it('names the coin field for an unknown coin', () => {
    expect(() => sut.resolve('FOO')).toThrow('coin: unknown coin "FOO" (expected a perp symbol)');
  });
});

describe(HlCatalog.name, () => {
  const sut = HlCatalog.build(
    [
      market({ market: 'perp', coin: 'BTC', markPx: '100000' }),
      market({ market: 'perp', coin: 'xyz:TSLA', dex: 'xyz' }),
      market({ market: 'spot', coin: 'HYPE' }),
      market({ market: 'hip4', coin: '#1', outcomeId: 0, outcomeSide: 1, midPx: '0.4', outcomeName: 'Yes or no' }),
      market({ market: 'hip4', coin: '#0', outcomeId: 0, outcomeSide: 0, midPx: '0.6', outcomeName: 'Yes or no' }),
    ],
    { market: null, leaderboard: { id: 3, kind: 'leaderboard', snapshotTime: new Date(0), rows: 10, feedsReadAt: {} } },
  );

  it('splits the listed coins by endpoint', () => {
    expect(sut.perp.has('xyz:TSLA') && sut.perp.has('BTC')).toBe(true);
    expect(sut.hip3.has('xyz:TSLA') && !sut.hip3.has('BTC')).toBe(true);
    expect(sut.spot.has('HYPE') && !sut.spot.has('BTC')).toBe(true);
    expect(sut.markPx('perp', 'BTC')).toBe('100000');
  });

  it('gives an outcome the YES side mid as its mark', () => {
    expect(sut.outcome(0)).toEqual({ outcomeId: 0, name: 'Yes or no', markPx: '0.6', yesCoin: '#0' });
    expect(() => sut.outcome(7)).toThrow('outcomeId: unknown outcome "7" (listed: 0 "Yes or no")');
  });

  it('names the listed outcomes when it refuses an unknown outcomeId', () => {
    const outcomes = HlCatalog.build(
      [
        market({ market: 'hip4', coin: '#10', outcomeId: 1, outcomeSide: 0, outcomeName: 'ETH above 1950' }),
        market({ market: 'hip4', coin: '#0', outcomeId: 0, outcomeSide: 0, outcomeName: 'BTC above 66000' }),
      ],
      { market: null, leaderboard: null },
    );
    expect(() => outcomes.outcome(7)).toThrow('outcomeId: unknown outcome "7" (listed: 0 "BTC above 66000", 1 "ETH above 1950")');
  });

  it(`names at most ${MAX_OUTCOMES_NAMED} outcomes, and says none is listed before the catalogue exists`, () => {
    const many = Array.from({ length: MAX_OUTCOMES_NAMED + 3 }, (_, id) =>
      market({ market: 'hip4', coin: `#${id * 10}`, outcomeId: id, outcomeSide: 0, outcomeName: `Q${id}` }),
    );
    const listed = HlCatalog.build(many, { market: null, leaderboard: null });
    expect(() => listed.outcome(999)).toThrow(new RegExp(`, ${MAX_OUTCOMES_NAMED - 1} "Q${MAX_OUTCOMES_NAMED - 1}" and 3 more\\)$`));
    const empty = HlCatalog.build([], { market: null, leaderboard: null });
    expect(() => empty.outcome(0)).toThrow('outcomeId: unknown outcome "0" (no outcome is listed yet)');
  });

  it('answers 502 MARKET_UPSTREAM_ERROR for a kind with no published snapshot', () => {
    expect(sut.requireSnapshot('leaderboard').id).toBe(3);
    let error: unknown;
    try {
      sut.requireSnapshot('market');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toEqual(expect.objectContaining({ code: ErrorCode.MARKET_UPSTREAM_ERROR, message: 'no snapshot published yet' }));
  });
});
