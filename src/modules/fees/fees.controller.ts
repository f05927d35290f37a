import { Get, Query } from '@nestjs/common';
import { ApiEnvelope } from '../../common/decorators/api-envelope.decorator';
import { CallerContext, CurrentCaller } from '../access/current-caller.decorator';
import { PublicApiController, PublicEndpoint } from '../access/public-endpoint.decorator';
import { FeeRecordDto } from './dto/fee-record.dto';
import { FeesQueryDto } from './dto/fees.query.dto';
import { FEES_MAX_RANGE_DAYS } from './fee-window';
import { FeesService } from './fees.service';

/** Contract 4.6: the service's builder fees on the key holder's fills. */
@PublicApiController('account/fees', 'Account')
export class FeesController {
  constructor(private readonly fees: FeesService) {}

  @Get()
  @PublicEndpoint(
    'account.fees',
    `Fee records of the key holder's fills through the service's builder, newest first, within a window of at most ${FEES_MAX_RANGE_DAYS} days (total is null: use hasMore)`,
  )
  @ApiEnvelope(FeeRecordDto, { page: 'offset' })
  list(@CurrentCaller() { caller }: CallerContext, @Query() query: FeesQueryDto) {
    return this.fees.list(caller, query);
  }
}
