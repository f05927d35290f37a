import { Body, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorResponse } from '../../common/decorators/api-envelope.decorator';
import { ErrorCode } from '../../common/errors/error-code';
import { BackendApiController } from '../access/backend-api.decorator';
import { CurrentPrincipal } from '../access/current-principal.decorator';
import { WalletPrincipal } from '../access/principal';
import { BindReferralDto, ReferralStatusDto } from './dto/referral.dto';
import { ReferralsService } from './referrals.service';

@BackendApiController('referral', 'Backend: referrals')
export class ReferralsBackendController {
  constructor(private readonly referrals: ReferralsService) {}

  @Get('status')
  @ApiOperation({ summary: 'The wallet’s referral status (the body of GET /api/public/v1/account/referrals)' })
  @ApiEnvelope(ReferralStatusDto, { open: true })
  status(@CurrentPrincipal() wallet: WalletPrincipal) {
    return this.referrals.status(wallet);
  }

  @Post('bind')
  @HttpCode(200)
  @ApiOperation({ summary: 'Binds the wallet’s account to the owner of a referral code, once and for good; answers the status after it' })
  @ApiEnvelope(ReferralStatusDto, { open: true })
  @ApiErrorResponse(
    400,
    [ErrorCode.VALIDATION_ERROR],
    'code is malformed or unknown, is the account’s own, the account is already bound, or binding would make a cycle (msg says which)',
    { open: true },
  )
  bind(@CurrentPrincipal() wallet: WalletPrincipal, @Body() body: BindReferralDto) {
    return this.referrals.bind(wallet, body);
  }
}
