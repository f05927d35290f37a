import { ApiProperty } from '@nestjs/swagger';
import { NOTIFICATION_TYPES, NOTIFICATION_TYPES_TEXT, NotificationType } from '../notification-types';

export class NotificationDto {
  @ApiProperty({ example: '1042', description: 'Decimal string; the id POST /api/v1/notifications/{id}/read takes' })
  id: string;

  @ApiProperty({ enum: [...NOTIFICATION_TYPES], example: 'price_move', description: NOTIFICATION_TYPES_TEXT })
  type: NotificationType;

  @ApiProperty({ example: 'BTC', description: 'The coin, as /hl spells it' })
  coin: string;

  @ApiProperty({ example: 'BTC rose 6.2% in the last hour to 97,410' })
  message: string;

  @ApiProperty({ example: false })
  isRead: boolean;

  @ApiProperty({ example: '2026-11-25T12:00:00.000Z' })
  createdAt: string;
}

/** The flat pagination envelope plus the account's unread count (contract 4.6). */
export class NotificationsPageDto {
  @ApiProperty({ type: [NotificationDto] })
  items: NotificationDto[];

  @ApiProperty({ type: 'integer', example: 1, description: '1-based page number that was served' })
  page: number;

  @ApiProperty({ type: 'integer', example: 20, description: 'Page size used' })
  limit: number;

  @ApiProperty({ type: 'integer', example: 3, description: 'Notifications matching the filters' })
  total: number;

  @ApiProperty({ example: false })
  hasMore: boolean;

  @ApiProperty({ type: 'integer', example: 2, description: 'Unread notifications of the account, whatever the filters' })
  unreadCount: number;
}

export class UnreadIndicatorDto {
  @ApiProperty({ example: true, description: 'Whether any notification is unread' })
  unread: boolean;

  @ApiProperty({ type: 'integer', example: 2 })
  count: number;
}

export class ReadAllResultDto {
  @ApiProperty({ type: 'integer', example: 3, description: 'Notifications this call marked read (0 when none was unread)' })
  marked: number;
}
