import { Get, Query } from '@nestjs/common';
import { ApiEnvelope } from '../../common/decorators/api-envelope.decorator';
import { CallerContext, CurrentCaller } from '../access/current-caller.decorator';
import { PublicApiController, PublicEndpoint } from '../access/public-endpoint.decorator';
import { NotificationsPageDto, UnreadIndicatorDto } from './dto/notification.dto';
import { NotificationsQueryDto } from './dto/notifications.query.dto';
import { NotificationsService } from './notifications.service';

/** The key holder's notifications (contract 4.6); marks and settings go through the backend API. */
@PublicApiController('account/notifications', 'Account')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  @PublicEndpoint('account.notifications', 'Notifications of the key holder, with the unread count beside the pagination fields')
  @ApiEnvelope(NotificationsPageDto)
  list(@CurrentCaller() { caller }: CallerContext, @Query() query: NotificationsQueryDto) {
    return this.notifications.list(caller.accountId, query);
  }

  @Get('unread')
  @PublicEndpoint('account.notifications.unread', 'Unread indicator: whether any notification is unread, and how many', { query: false })
  @ApiEnvelope(UnreadIndicatorDto)
  unread(@CurrentCaller() { caller }: CallerContext) {
    return this.notifications.unread(caller.accountId);
  }
}
