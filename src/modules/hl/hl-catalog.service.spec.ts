import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { CoinIndex, HlCatalog } from './hl-catalog.service';
import { MarketRow } from './hl-markets.repository';

function market(fields: Partial<MarketRow> & Pick<MarketRow, 'market' | 'coin'>): MarketRow {
  return { dex: '', markPx: null, midPx: null, outcomeId: null, outcomeSide: null, outcomeName: null, ...fields };
}

describe(CoinIndex.name, () => {
  const sut = new CoinIndex('a perp symbol');
  for (const coin of ['BTC', 'xyz:TSLA', 'kPEPE', 'KPEPE']) sut.add(coin);

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
    { market: null, leaderboard: { id: 3, kind: 'leaderboard', snapshotTime: new Date(0), rows: 10 } },
  );

  it('splits the listed coins by endpoint', () => {
    expect(sut.perp.has('xyz:TSLA') && sut.perp.has('BTC')).toBe(true);
    expect(sut.hip3.has('xyz:TSLA') && !sut.hip3.has('BTC')).toBe(true);
    expect(sut.spot.has('HYPE') && !sut.spot.has('BTC')).toBe(true);
    expect(sut.markPx('perp', 'BTC')).toBe('100000');
  });

  it('gives an outcome the YES side mid as its mark', () => {
    expect(sut.outcome(0)).toEqual({ outcomeId: 0, name: 'Yes or no', markPx: '0.6', yesCoin: '#0' });
    expect(() => sut.outcome(7)).toThrow('outcomeId: unknown outcome "7"');
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
