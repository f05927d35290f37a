import { Get, Query } from '@nestjs/common';
import { ApiEnvelope } from '../../common/decorators/api-envelope.decorator';
import { CallerContext, CurrentCaller } from '../access/current-caller.decorator';
import { PublicApiController, PublicEndpoint } from '../access/public-endpoint.decorator';
import { PointsOverviewDto, PointsTransactionDto, PointsTransactionsQueryDto } from './dto/points.dto';
import { PointsService } from './points.service';

/** Contract 4.6: the key holder's points, earned by builder-attributed fills (docs/decisions.md, "Points"). */
@PublicApiController('account/points', 'Account')
export class PointsController {
  constructor(private readonly points: PointsService) {}

  @Get()
  @PublicEndpoint('account.points', 'Points balance, rank and per-bucket sums of the key holder', { query: false })
  @ApiEnvelope(PointsOverviewDto)
  overview(@CurrentCaller() { caller }: CallerContext) {
    return this.points.overview(caller);
  }

  @Get('transactions')
  @PublicEndpoint('account.points.transactions', 'Points history of the key holder, newest first (total is null: use hasMore)')
  @ApiEnvelope(PointsTransactionDto, { page: 'offset' })
  transactions(@CurrentCaller() { caller }: CallerContext, @Query() query: PointsTransactionsQueryDto) {
    return this.points.transactions(caller, query);
  }
}
