import { Decimal } from '../../common/decimal/decimal';

export interface ReferralLevel {
  level: string;
  /** Referees' total volume (USD) from which the level applies. */
  minVolumeUsd: string;
  /** Share of the referees' builder fees paid to the referrer. */
  rebateRate: string;
}

/** The level table, lowest first: a referrer's level follows its referees' total volume since they bound. */
export const REFERRAL_LEVELS: readonly ReferralLevel[] = [
  { level: 'L1', minVolumeUsd: '0', rebateRate: '0.1' },
  { level: 'L2', minVolumeUsd: '1000000', rebateRate: '0.15' },
  { level: 'L3', minVolumeUsd: '10000000', rebateRate: '0.2' },
  { level: 'L4', minVolumeUsd: '100000000', rebateRate: '0.25' },
];

/** The highest level whose floor the volume reaches. */
export function referralLevelFor(refereesVolumeUsd: string): ReferralLevel {
  const volume = new Decimal(refereesVolumeUsd);
  return [...REFERRAL_LEVELS].reverse().find((level) => volume.gte(level.minVolumeUsd)) ?? REFERRAL_LEVELS[0];
}

/** A referrer's level and rewards from its referees' volume and builder fees since they bound: fees × the level's rebate. */
export function referrerRewards({ volumeUsd, builderFee }: { volumeUsd: string; builderFee: string }): { level: ReferralLevel; rewards: string } {
  const level = referralLevelFor(volumeUsd);
  return { level, rewards: new Decimal(builderFee).times(level.rebateRate).toFixed() };
}
