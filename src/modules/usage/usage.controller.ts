import { Get } from '@nestjs/common';
import { ApiEnvelope } from '../../common/decorators/api-envelope.decorator';
import { CallerContext, CurrentCaller } from '../access/current-caller.decorator';
import { PublicApiController, PublicEndpoint } from '../access/public-endpoint.decorator';
import { UsageItemDto } from './dto/usage-item.dto';
import { UsageService } from './usage.service';

@PublicApiController('usage', 'Usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @PublicEndpoint('usage.list', 'Calls and credits per endpoint in the current period (not billed)', { query: false })
  @ApiEnvelope(UsageItemDto, { isArray: true })
  list(@CurrentCaller() { caller }: CallerContext) {
    return this.usage.currentPeriod(caller);
  }
}
