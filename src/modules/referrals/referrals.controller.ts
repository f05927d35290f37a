import { Get, Query } from '@nestjs/common';
import { ApiEnvelope } from '../../common/decorators/api-envelope.decorator';
import { CallerContext, CurrentCaller } from '../access/current-caller.decorator';
import { PublicApiController, PublicEndpoint } from '../access/public-endpoint.decorator';
import { ClaimAllDto, ClaimsDto, ClaimStatusDto } from '../rewards/dto/claims.dto';
import { RewardClaimsService } from '../rewards/reward-claims.service';
import { RefereesPageDto, RefereesQueryDto, ReferralStatusDto } from './dto/referral.dto';
import { ReferralsService } from './referrals.service';

/** Contract 4.6: the key holder's referral status, referees and claim rounds. */
@PublicApiController('account/referrals', 'Account')
export class ReferralsController {
  constructor(
    private readonly referrals: ReferralsService,
    private readonly claims: RewardClaimsService,
  ) {}

  @Get()
  @PublicEndpoint('account.referrals', 'Referral status of the key holder: code, referrer, volumes, rewards, level', { query: false })
  @ApiEnvelope(ReferralStatusDto)
  status(@CurrentCaller() { caller }: CallerContext) {
    return this.referrals.status(caller);
  }

  @Get('referees')
  @PublicEndpoint('account.referrals.referees', 'Referees of the key holder, the first bound first, with the aggregates beside the paging fields')
  @ApiEnvelope(RefereesPageDto)
  referees(@CurrentCaller() { caller }: CallerContext, @Query() query: RefereesQueryDto) {
    return this.referrals.referees(caller.accountId, query);
  }

  @Get('claims')
  @PublicEndpoint('account.referrals.claims', 'Referral claim rounds with a leaf of the key holder, newest first', { query: false })
  @ApiEnvelope(ClaimsDto)
  listClaims(@CurrentCaller() { caller }: CallerContext) {
    return this.claims.claims(caller, 'referral');
  }

  @Get('claims/status')
  @PublicEndpoint('account.referrals.claims.status', 'Whether the key holder has referral rewards to claim, and how much', { query: false })
  @ApiEnvelope(ClaimStatusDto)
  claimStatus(@CurrentCaller() { caller }: CallerContext) {
    return this.claims.status(caller, 'referral');
  }

  @Get('claims/all')
  @PublicEndpoint('account.referrals.claims.all', 'Every unclaimed referral round of the key holder as one claimMultiple(roundIds, amounts, proofs) payload', {
    query: false,
  })
  @ApiEnvelope(ClaimAllDto)
  claimAll(@CurrentCaller() { caller }: CallerContext) {
    return this.claims.claimAll(caller, 'referral');
  }
}
