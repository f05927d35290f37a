import { Get, Query } from '@nestjs/common';
import { ApiEnvelope, ApiErrorResponse } from '../../common/decorators/api-envelope.decorator';
import { ErrorCode } from '../../common/errors/error-code';
import { CallerContext, CurrentCaller } from '../access/current-caller.decorator';
import { PublicApiController, PublicEndpoint } from '../access/public-endpoint.decorator';
import { ClaimsPageQueryDto, OpcClaimsPageDto } from '../rewards/dto/claims.dto';
import { OpcClaimableDto, OpcConfigDto, OpcRevenueEntryDto, OpcRevenueQueryDto, OpcRevenueSummaryDto } from './dto/opc.dto';
import { OpcService } from './opc.service';

const NEEDS_ACTIVE_OPC = ApiErrorResponse(403, [ErrorCode.FORBIDDEN], 'The key holder has no active OPC (not billed)');

/** Contract 4.6: the key holder's OPC configuration, and its revenue and claims while it is active. */
@PublicApiController('account/opc', 'Account')
export class OpcController {
  constructor(private readonly opc: OpcService) {}

  @Get()
  @PublicEndpoint('account.opc', 'OPC configuration of the key holder, or null when it has none', { query: false })
  @ApiEnvelope(OpcConfigDto, { nullable: true })
  config(@CurrentCaller() { caller }: CallerContext) {
    return this.opc.get(caller.accountId);
  }

  @Get('revenue')
  @PublicEndpoint('account.opc.revenue', 'Revenue entries of the key holder’s active OPC, one per UTC day, newest first')
  @ApiEnvelope(OpcRevenueEntryDto, { page: 'offset' })
  @NEEDS_ACTIVE_OPC
  revenue(@CurrentCaller() { caller }: CallerContext, @Query() query: OpcRevenueQueryDto) {
    return this.opc.revenue(caller, query);
  }

  @Get('revenue/summary')
  @PublicEndpoint('account.opc.revenue.summary', 'Revenue, claimed and pending totals of the key holder’s active OPC', { query: false })
  @ApiEnvelope(OpcRevenueSummaryDto)
  @NEEDS_ACTIVE_OPC
  summary(@CurrentCaller() { caller }: CallerContext) {
    return this.opc.summary(caller);
  }

  @Get('claimable')
  @PublicEndpoint('account.opc.claimable', 'What the key holder’s active OPC can claim now', { query: false })
  @ApiEnvelope(OpcClaimableDto)
  @NEEDS_ACTIVE_OPC
  claimable(@CurrentCaller() { caller }: CallerContext) {
    return this.opc.claimable(caller);
  }

  @Get('claims')
  @PublicEndpoint('account.opc.claims', 'Claim rounds of the key holder’s active OPC, newest first, with account and distributor beside the paging fields')
  @ApiEnvelope(OpcClaimsPageDto)
  @NEEDS_ACTIVE_OPC
  claims(@CurrentCaller() { caller }: CallerContext, @Query() query: ClaimsPageQueryDto) {
    return this.opc.claimsPage(caller, query);
  }
}
