import type { Tier } from '../billing/billing.public';

/** Who is calling, as resolved from the x-api-key header (cached; see ApiCallerCache). */
export interface ApiCaller {
  keyId: string;
  keyPrefix: string;
  accountId: string;
  walletAddress: string;
  tier: Tier;
  resetAnchorAt: Date;
  /** resetAnchorAt as ISO text, made once per key read rather than on every call that shows it. */
  resetAnchorText: string;
  /** What the database knows of the balance; the KV store's live balance re-seeds from it when creditEpoch moves. */
  creditSeedMicro: string;
  creditEpoch: number;
  creditPeriod: number;
}
