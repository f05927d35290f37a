import { Injectable } from '@nestjs/common';
import { CallerContext } from '../access/current-caller.decorator';
import { assertWithinOffsetCap, offsetOf } from '../../common/pagination/offset-cap';
import { Page, toPageFromProbe } from '../../common/pagination/page.dto';
import { accountSummary } from './account-summary';
import { AccountSummaryDto, CreditBalanceDto } from './dto/account-summary.dto';
import { CreditTransactionDto, CreditTransactionsQueryDto } from './dto/credit-transaction.dto';
import { VipEntitlementsDto, VipSubscriptionDto } from './dto/vip.dto';
import { AccountCreditsRepository, isMetered, periodAt, TIERS } from '../billing/billing.public';

/** Reads of the key holder's own account (contract 4.6); identity comes from the key alone. */
@Injectable()
export class AccountService {
  constructor(private readonly credits: AccountCreditsRepository) {}

  getSummary({ caller, liveBalance }: CallerContext): AccountSummaryDto {
    const { walletAddress, tier, resetAnchorText, keyPrefix } = caller;
    return accountSummary({ walletAddress, tier, resetAnchorText, balance: liveBalance, keyPrefix });
  }

  getCredits({ caller, liveBalance }: CallerContext): CreditBalanceDto {
    return { balance: liveBalance ?? '0', resetAnchorAt: caller.resetAnchorText };
  }

  /** Subscriptions are operator-managed here (no payments), so a tier is active until an operator changes it. */
  getVip({ caller }: CallerContext): VipSubscriptionDto {
    const paid = isMetered(caller.tier);
    return {
      tier: TIERS[caller.tier].label,
      status: 'active',
      pendingTier: null,
      autoRenew: paid,
      currentPeriodEnd: periodAt(caller.resetAnchorAt, new Date()).end.toISOString(),
      cancelledAt: null,
      requiresPayment: false,
    };
  }

  getEntitlements({ caller }: CallerContext): VipEntitlementsDto {
    const policy = TIERS[caller.tier];
    return {
      tier: policy.label,
      feeDiscount: policy.feeDiscount,
      apiRateLimit: { rpm: policy.rpm },
      features: { ...policy.features },
    };
  }

  async listCreditTransactions({ caller }: CallerContext, { page, limit }: CreditTransactionsQueryDto): Promise<Page<CreditTransactionDto>> {
    assertWithinOffsetCap(page, limit);
    const rows = await this.credits.listTransactions(caller.accountId, offsetOf(page, limit), limit + 1);
    return toPageFromProbe({
      page,
      limit,
      rows: rows.map((row) => ({
        id: String(row.id),
        type: row.type,
        amount: row.amount,
        balanceAfter: row.balanceAfter,
        referenceType: row.referenceType,
        referenceId: row.referenceId,
        notes: row.notes,
        createdAt: row.createdAt.toISOString(),
      })),
    });
  }
}
