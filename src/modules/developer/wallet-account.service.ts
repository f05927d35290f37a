import { Injectable } from '@nestjs/common';
import { WalletPrincipal } from '../access/principal';
import { AccountAdminService } from '../account/account-admin.service';
import { accountSummary } from '../account/account-summary';
import { AccountSummaryDto } from '../account/dto/account-summary.dto';
import { CreditBalanceReader } from '../billing/billing.public';

/** The signed-in wallet's account, as the public `/account` shows a key holder's. */
@Injectable()
export class WalletAccountService {
  constructor(
    private readonly admin: AccountAdminService,
    private readonly balances: CreditBalanceReader,
  ) {}

  async summary({ accountId, walletAddress }: WalletPrincipal): Promise<AccountSummaryDto> {
    const account = await this.admin.accountById(accountId);
    const [balance, keys] = await Promise.all([this.balances.balanceOf(account), this.admin.listKeys({ wallet: walletAddress })]);
    const newestActive = keys.filter((key) => !key.revokedAt).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
    return accountSummary({
      walletAddress: account.walletAddress,
      tier: account.tier,
      resetAnchorText: account.resetAnchorAt.toISOString(),
      balance,
      keyPrefix: newestActive?.prefix ?? null,
    });
  }
}
