import { creditsToMicro, MICRO_PER_CREDIT, microToCredits } from './credit-units';

describe(creditsToMicro.name, () => {
  const sut = creditsToMicro;

  it.each([
    ['1', '1000000'],
    ['0', '0'],
    ['1.5', '1500000'],
    ['0.000001', '1'],
    ['-2.25', '-2250000'],
    ['100000000', '100000000000000'],
  ])('turns %s credits into %s micro-credits', (credits, micro) => {
    expect(sut(credits)).toBe(micro);
  });

  it('accepts numbers as well as strings', () => {
    expect(sut(2.5)).toBe('2500000');
    expect(sut(MICRO_PER_CREDIT)).toBe('1000000000000');
  });

  it('keeps values past 2^53 exact and never uses exponent notation', () => {
    expect(sut('123456789012345.123456')).toBe('123456789012345123456');
    expect(sut('1000000000000000')).toBe('1000000000000000000000');
  });

  it.each(['0.0000001', '1.1234567', '-0.0000005'])('rejects %s, which has more than 6 decimal places', (credits) => {
    expect(() => sut(credits)).toThrow(/more than 6 decimal places/);
  });
});

describe(microToCredits.name, () => {
  const sut = microToCredits;

  it.each([
    ['1000000', '1'],
    ['1500000', '1.5'],
    ['1', '0.000001'],
    ['0', '0'],
    ['-2250000', '-2.25'],
    ['99999999000000', '99999999'],
    ['123456789012345123456', '123456789012345.123456'],
  ])('turns %s micro-credits into %s credits', (micro, credits) => {
    expect(sut(micro)).toBe(credits);
  });

  it.each(['0', '1', '0.000001', '42.123456', '100000000', '123456789012345.123456', '-7.5'])('round-trips %s credits', (credits) => {
    expect(microToCredits(creditsToMicro(credits))).toBe(credits);
  });
});
