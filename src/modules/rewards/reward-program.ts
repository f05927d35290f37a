/** The programmes that pay through claim rounds: referral rebates and OPC revenue. */
export const REWARD_PROGRAMS = ['referral', 'opc'] as const;
export type RewardProgram = (typeof REWARD_PROGRAMS)[number];
