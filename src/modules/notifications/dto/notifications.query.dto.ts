import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQuery } from '../../../common/pagination/page-query.dto';
import { SortOrder } from '../../../common/pagination/sort-order';
import { OrderParam } from '../../../common/validation/query-fields';
import { NOTIFICATION_TYPES, NOTIFICATION_TYPES_TEXT, NotificationType } from '../notification-types';

export const IS_READ_VALUES = ['true', 'false'] as const;

export class NotificationsQueryDto extends PageQuery({ defaultLimit: 20, maxLimit: 100 }) {
  // No example on the optional filters: Swagger UI's "Try it out" would send it and narrow the list.
  @ApiPropertyOptional({ enum: [...IS_READ_VALUES], description: 'Read (`true`) or unread (`false`) notifications only, exactly as spelled.' })
  @IsOptional()
  @IsIn([...IS_READ_VALUES])
  isRead?: (typeof IS_READ_VALUES)[number];

  @ApiPropertyOptional({ enum: [...NOTIFICATION_TYPES], description: `One type only: ${NOTIFICATION_TYPES_TEXT}.` })
  @IsOptional()
  @IsIn([...NOTIFICATION_TYPES])
  type?: NotificationType;

  @ApiPropertyOptional({ minLength: 1, maxLength: 64, description: 'One coin only, exactly as /hl spells it (`BTC`, `dex:XYZ100`).' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  coin?: string;

  @OrderParam('By creation time: newest first (desc, the default) or oldest first (asc).')
  order: SortOrder = 'desc';
}
