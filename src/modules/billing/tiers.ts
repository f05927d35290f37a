export const TIER_NAMES = ['free', 'pro', 'max'] as const;
export type Tier = (typeof TIER_NAMES)[number];

export interface TierPolicy {
  /** How the contract spells the tier in responses. */
  label: 'Free' | 'Pro' | 'Max';
  /** Requests per clock minute per key (contract 5.1 / 8.1). */
  rpm: number;
  /** Monthly credit quota; null means the tier is never metered. */
  monthlyCredits: string | null;
  /** Builder-fee discount as a fraction (0.1 = 10 %). Contract silent; see docs/decisions.md. */
  feeDiscount: string;
  /** Points multiplier of a fill made while the account is on this tier (decimal string). */
  pointsMultiplier: string;
  features: { advancedCharts: boolean; alertsEnabled: boolean };
}

/** The tier table: the single source for caps, quotas and entitlements. */
export const TIERS: Record<Tier, TierPolicy> = {
  free: {
    label: 'Free',
    rpm: 60,
    monthlyCredits: null,
    feeDiscount: '0',
    pointsMultiplier: '1',
    features: { advancedCharts: false, alertsEnabled: false },
  },
  pro: {
    label: 'Pro',
    rpm: 200,
    monthlyCredits: '10000000',
    feeDiscount: '0.1',
    pointsMultiplier: '1.1',
    features: { advancedCharts: true, alertsEnabled: true },
  },
  max: {
    label: 'Max',
    rpm: 600,
    monthlyCredits: '100000000',
    feeDiscount: '0.2',
    pointsMultiplier: '1.25',
    features: { advancedCharts: true, alertsEnabled: true },
  },
};

export function isMetered(tier: Tier): boolean {
  return TIERS[tier].monthlyCredits !== null;
}

export function isTier(value: string): value is Tier {
  return (TIER_NAMES as readonly string[]).includes(value);
}
