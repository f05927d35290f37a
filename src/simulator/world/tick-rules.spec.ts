import { roundPx, roundSz } from './tick-rules';

describe(roundSz.name, () => {
  it('rounds to the lot and never below one lot', () => {
    expect(roundSz(0.123456, 4)).toBe(0.1235);
    expect(roundSz(0.000001, 2)).toBe(0.01);
  });
});

describe(roundPx.name, () => {
  it('keeps 5 significant figures within the decimals allowed for perps and spot', () => {
    expect(roundPx(66344.37, 5, false)).toBe(66344);
    expect(roundPx(0.0036631, 0, false)).toBe(0.003663);
    expect(roundPx(0.623512, 0, true)).toBe(0.62351);
  });
});
