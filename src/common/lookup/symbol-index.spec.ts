import { SymbolIndex } from './symbol-index';

describe(SymbolIndex.name, () => {
  const sut = new SymbolIndex(['BTC', 'xyz:TSLA', 'kPEPE', 'KPEPE', 'BTC']);

  it('answers a listed spelling as it is', () => {
    expect(sut.resolve('BTC')).toBe('BTC');
    expect(sut.resolve('xyz:TSLA')).toBe('xyz:TSLA');
  });

  it('answers the canonical spelling of any other casing', () => {
    expect(sut.resolve('btc')).toBe('BTC');
    expect(sut.resolve('XYZ:tsla')).toBe('xyz:TSLA');
  });

  it('resolves a spelling shared by two symbols only when it is exact', () => {
    expect(sut.resolve('kPEPE')).toBe('kPEPE');
    expect(sut.resolve('KPEPE')).toBe('KPEPE');
    expect(sut.resolve('kpepe')).toBeUndefined();
    expect(sut.isAmbiguous('kpepe')).toBe(true);
    expect(sut.isAmbiguous('kPEPE')).toBe(false);
  });

  it('answers undefined for an unlisted symbol, without calling it ambiguous', () => {
    expect(sut.resolve('FOO')).toBeUndefined();
    expect(sut.isAmbiguous('FOO')).toBe(false);
  });

  it('tells exact membership apart from a case-insensitive match', () => {
    expect(sut.has('BTC')).toBe(true);
    expect(sut.has('btc')).toBe(false);
  });

  it('lists nothing when built from no symbols', () => {
    expect(new SymbolIndex([]).resolve('')).toBeUndefined();
  });
});
