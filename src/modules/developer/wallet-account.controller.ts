import { Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorResponse } from '../../common/decorators/api-envelope.decorator';
import { ErrorCode } from '../../common/errors/error-code';
import { BackendApiController } from '../access/backend-api.decorator';
import { CurrentPrincipal } from '../access/current-principal.decorator';
import { WalletPrincipal } from '../access/principal';
import { AccountSummaryDto } from '../account/dto/account-summary.dto';
import { UsageHistoryDto, UsageHistoryQueryDto } from './dto/usage-history.dto';
import { WalletAccountService } from './wallet-account.service';
import { WalletUsageService } from './wallet-usage.service';

/** The signed-in wallet's account and usage: what the developer portal shows beside its keys. */
@BackendApiController('', 'Backend: account')
export class WalletAccountController {
  constructor(
    private readonly account: WalletAccountService,
    private readonly usage: WalletUsageService,
  ) {}

  @Get('account')
  @ApiOperation({ summary: 'Tier, rate limit and live credit balance of the wallet’s account (the public /account summary)' })
  @ApiEnvelope(AccountSummaryDto, { open: true })
  getAccount(@CurrentPrincipal() wallet: WalletPrincipal) {
    return this.account.summary(wallet);
  }

  @Get('usage')
  @ApiOperation({
    summary: 'Calls and credits per UTC day and endpoint, for the last `days` days (current period and before)',
    description:
      'What the portal charts. Calls are on the day they were made; this replica’s calls show at once, other replicas’ within ' +
      'USAGE_FLUSH_INTERVAL_MS. The public /usage still reports the current period only, as the contract says.',
  })
  @ApiEnvelope(UsageHistoryDto, { open: true })
  @ApiErrorResponse(400, [ErrorCode.VALIDATION_ERROR], 'days is not an integer from 1 to 90, or an unknown parameter was given', { open: true })
  getUsage(@CurrentPrincipal() wallet: WalletPrincipal, @Query() { days }: UsageHistoryQueryDto) {
    return this.usage.daily(wallet, days);
  }
}
