import { REFERRAL_LEVELS, referralLevelFor } from './referral-levels';

describe(referralLevelFor.name, () => {
  it('applies a level from its floor exactly, and the one below just under it', () => {
    expect(referralLevelFor('0').level).toBe('L1');
    expect(referralLevelFor('999999.999999').level).toBe('L1');
    expect(referralLevelFor('1000000')).toEqual({ level: 'L2', minVolumeUsd: '1000000', rebateRate: '0.15' });
    expect(referralLevelFor('10000000').level).toBe('L3');
    expect(referralLevelFor('1e12').level).toBe('L4');
  });

  it('lists levels lowest first with rising rebates', () => {
    const rates = REFERRAL_LEVELS.map((level) => Number(level.rebateRate));
    expect([...rates].sort((a, b) => a - b)).toEqual(rates);
  });
});
