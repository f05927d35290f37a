import { Inject, Injectable } from '@nestjs/common';
import { periodIndexAt } from './credit-period';
import { CREDIT_STORE, CreditStore } from './credit-store';
import { creditsToMicro, microToCredits } from './credit-units';
import { isMetered, Tier, TIERS } from './tiers';

/** What the balance read needs of an account: its AccountEntity columns, as PostgreSQL holds them. */
export interface CreditAccount {
  id: string;
  tier: Tier;
  /** Settled balance in credits (decimal text). */
  creditBalance: string;
  creditEpoch: number;
  creditPeriod: number;
  resetAnchorAt: Date;
}

/** An account's live credit balance, read without admitting a call (no window counted, nothing charged). */
@Injectable()
export class CreditBalanceReader {
  constructor(@Inject(CREDIT_STORE) private readonly store: CreditStore) {}

  /**
   * The balance in credits (decimal text, as microToCredits gives it) that a call admitted at `now` would
   * start from: what `/account/credits` reports at that moment plus that call's own cost (this read takes
   * none). On the redis store, the live balance when it holds the account's epoch (or a newer one), else
   * the settled `creditBalance`; PostgreSQL's on the postgres store; the tier's quota instead when the
   * current period is newer than that balance's (a monthly reset no call has made yet). Null for tiers that
   * are never metered (Free). One round trip, no write.
   */
  async balanceOf(account: CreditAccount, now = new Date()): Promise<string | null> {
    const quota = TIERS[account.tier].monthlyCredits;
    if (!isMetered(account.tier) || quota === null) return null;
    const micro = await this.store.readBalance({
      accountId: account.id,
      seedMicro: creditsToMicro(account.creditBalance),
      epoch: account.creditEpoch,
      seedPeriod: account.creditPeriod,
      period: periodIndexAt(account.resetAnchorAt, now),
      quotaMicro: creditsToMicro(quota),
    });
    return microToCredits(micro);
  }
}
