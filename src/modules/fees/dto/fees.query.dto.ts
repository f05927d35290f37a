import { PageQuery } from '../../../common/pagination/page-query.dto';
import { TimeParam } from '../../../common/validation/time-param.decorator';
import { FEES_MAX_RANGE_DAYS } from '../fee-window';

export class FeesQueryDto extends PageQuery({ defaultLimit: 100, maxLimit: 500 }) {
  @TimeParam(`Start of the window (inclusive). Default: ${FEES_MAX_RANGE_DAYS} days before endTime.`)
  startTime?: string;

  @TimeParam(`End of the window (exclusive). Default: now, or startTime + ${FEES_MAX_RANGE_DAYS} days when only startTime is given and that is earlier.`)
  endTime?: string;
}
