import { TIERS, Tier } from '../billing/billing.public';
import { AccountSummaryDto } from './dto/account-summary.dto';

/**
 * The account summary of contract 2.7, one shape for the public `/account` (the calling key) and the
 * backend's `/api/v1/account` (the wallet's newest active key, or null without one).
 */
export function accountSummary(account: {
  walletAddress: string;
  tier: Tier;
  resetAnchorText: string;
  /** Live balance in credits; null on Free, which is not metered and shows "0". */
  balance: string | null;
  keyPrefix: string | null;
}): AccountSummaryDto {
  const policy = TIERS[account.tier];
  return {
    walletAddress: account.walletAddress,
    tier: policy.label,
    rpm: policy.rpm,
    credits: { balance: account.balance ?? '0', resetAnchorAt: account.resetAnchorText },
    keyPrefix: account.keyPrefix,
  };
}
