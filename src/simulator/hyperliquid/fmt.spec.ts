import { fmt, fmtPx } from './fmt';

describe(fmt.name, () => {
  it('writes decimals like the upstream: trimmed, with at least one decimal', () => {
    expect(fmt(2, 6)).toBe('2.0');
    expect(fmt(83.3076384, 6)).toBe('83.307638');
    expect(fmt(0, 6)).toBe('0.0');
    expect(fmt(-0.0000001, 6)).toBe('0.0');
    expect(fmt(-68.126246, 6)).toBe('-68.126246');
  });

  it('never writes exponent notation', () => {
    expect(fmt(1e-7, 10)).toBe('0.0000001');
    expect(fmt(1.5e20, 2)).toBe('150000000000000000000.0');
    expect(fmt(3e21, 2)).toBe('3000000000000000000000.0');
  });

  it('rejects values that are not finite', () => {
    expect(() => fmt(Number.NaN, 2)).toThrow(RangeError);
  });
});

describe(fmtPx.name, () => {
  it('keeps 5 significant figures within the decimals allowed by szDecimals', () => {
    expect(fmtPx(66344.37, 5, false)).toBe('66344.0');
    expect(fmtPx(37.82912, 2, false)).toBe('37.829');
    expect(fmtPx(0.0036631, 0, false)).toBe('0.003663');
    expect(fmtPx(0.623512, 0, true)).toBe('0.62351');
  });
});
