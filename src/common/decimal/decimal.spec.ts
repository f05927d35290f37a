import { Decimal, toDecimalString } from './decimal';

describe(toDecimalString.name, () => {
  it.each([
    ['10.500000', '10.5'],
    ['100', '100'],
    ['100.000', '100'],
    ['0.000100', '0.0001'],
    ['-12.3400', '-12.34'],
    ['-0.000', '0'],
    ['-0.0500', '-0.05'],
    ['007.50', '7.5'],
    ['-007.50', '-7.5'],
    ['-0.5000', '-0.5'],
    ['00', '0'],
    ['0', '0'],
    ['123456789012345678901234567890.123456789000', '123456789012345678901234567890.123456789'],
  ])('canonicalises %s as %s', (input, expected) => {
    expect(toDecimalString(input)).toBe(expected);
  });

  it('agrees with BigNumber on every shape it trims as text', () => {
    const samples = ['1.10', '-1.10', '0.5', '-0.5', '99999999999999999999.000000001', '42', '-42.0', '0.0'];
    for (const sample of samples) expect(toDecimalString(sample)).toBe(new Decimal(sample).toFixed());
  });

  it('never emits exponent notation for numbers and exponent strings', () => {
    expect(toDecimalString(1e21)).toBe('1000000000000000000000');
    expect(toDecimalString('1e-7')).toBe('0.0000001');
  });
});
