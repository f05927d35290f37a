import { Get, Query } from '@nestjs/common';
import { ApiEnvelope } from '../../common/decorators/api-envelope.decorator';
import { CallerContext, CurrentCaller } from '../access/current-caller.decorator';
import { PublicApiController, PublicEndpoint } from '../access/public-endpoint.decorator';
import { AccountService } from './account.service';
import { AccountSummaryDto, CreditBalanceDto } from './dto/account-summary.dto';
import { CreditTransactionDto, CreditTransactionsQueryDto } from './dto/credit-transaction.dto';
import { VipEntitlementsDto, VipSubscriptionDto } from './dto/vip.dto';

@PublicApiController('account', 'Account')
export class AccountController {
  constructor(private readonly account: AccountService) {}

  @Get()
  @PublicEndpoint('account.summary', 'Account summary of the key holder', { query: false })
  @ApiEnvelope(AccountSummaryDto)
  getSummary(@CurrentCaller() ctx: CallerContext) {
    return this.account.getSummary(ctx);
  }

  @Get('vip')
  @PublicEndpoint('account.vip', 'VIP subscription', { query: false })
  @ApiEnvelope(VipSubscriptionDto)
  getVip(@CurrentCaller() ctx: CallerContext) {
    return this.account.getVip(ctx);
  }

  @Get('vip/entitlements')
  @PublicEndpoint('account.vip.entitlements', 'Entitlements of the current tier', { query: false })
  @ApiEnvelope(VipEntitlementsDto)
  getEntitlements(@CurrentCaller() ctx: CallerContext) {
    return this.account.getEntitlements(ctx);
  }

  @Get('credits')
  @PublicEndpoint('account.credits', 'Live credit balance', { query: false })
  @ApiEnvelope(CreditBalanceDto)
  getCredits(@CurrentCaller() ctx: CallerContext) {
    return this.account.getCredits(ctx);
  }

  @Get('credits/transactions')
  @PublicEndpoint('account.credits.transactions', 'Credit ledger, newest first (total is always null; use hasMore)')
  @ApiEnvelope(CreditTransactionDto, { page: 'offset' })
  listCreditTransactions(@CurrentCaller() ctx: CallerContext, @Query() query: CreditTransactionsQueryDto) {
    return this.account.listCreditTransactions(ctx, query);
  }
}
