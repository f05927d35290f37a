import { Body, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiParam } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorResponse } from '../../common/decorators/api-envelope.decorator';
import { ErrorCode } from '../../common/errors/error-code';
import { BackendApiController } from '../access/backend-api.decorator';
import { CurrentPrincipal } from '../access/current-principal.decorator';
import { WalletPrincipal } from '../access/principal';
import { NotificationDto, NotificationsPageDto, ReadAllResultDto } from './dto/notification.dto';
import { NotificationsQueryDto } from './dto/notifications.query.dto';
import { NotificationSettingsDto, UpdateNotificationSettingsDto } from './dto/notification-settings.dto';
import { NotificationsService } from './notifications.service';

@BackendApiController('notifications', 'Backend: notifications')
export class NotificationsBackendController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  @ApiOperation({
    summary: 'The wallet’s notifications, as GET /api/public/v1/account/notifications serves them to its keys (the same filters and paging; unbilled)',
  })
  @ApiEnvelope(NotificationsPageDto, { open: true })
  @ApiErrorResponse(400, [ErrorCode.VALIDATION_ERROR], 'A filter or paging field is malformed (msg names it)', { open: true })
  list(@CurrentPrincipal() wallet: WalletPrincipal, @Query() query: NotificationsQueryDto) {
    return this.notifications.list(wallet.accountId, query);
  }

  @Post('read-all')
  @HttpCode(200)
  @ApiOperation({ summary: 'Marks every unread notification of the wallet’s account read and answers how many it marked' })
  @ApiEnvelope(ReadAllResultDto, { open: true })
  readAll(@CurrentPrincipal() wallet: WalletPrincipal) {
    return this.notifications.markAllRead(wallet.accountId);
  }

  @Post(':id/read')
  @HttpCode(200)
  @ApiOperation({ summary: 'Marks one notification read; marking it again answers the same' })
  @ApiParam({ name: 'id', example: '1042' })
  @ApiEnvelope(NotificationDto, { open: true })
  @ApiErrorResponse(404, [ErrorCode.NOT_FOUND], 'No such notification among the account’s own (another account’s and malformed ids alike)', { open: true })
  markRead(@CurrentPrincipal() wallet: WalletPrincipal, @Param('id') id: string) {
    return this.notifications.markRead(wallet.accountId, id);
  }

  @Get('settings')
  @ApiOperation({ summary: 'The account’s alert thresholds (the defaults until it saves any)' })
  @ApiEnvelope(NotificationSettingsDto, { open: true })
  getSettings(@CurrentPrincipal() wallet: WalletPrincipal) {
    return this.notifications.getSettings(wallet.accountId);
  }

  @Put('settings')
  @ApiOperation({ summary: 'Saves the fields given (null resets one to its default); the others keep their value. Answers the settings in force' })
  @ApiEnvelope(NotificationSettingsDto, { open: true })
  @ApiErrorResponse(400, [ErrorCode.VALIDATION_ERROR], 'A field is unknown, of the wrong type or out of range (msg names it)', { open: true })
  updateSettings(@CurrentPrincipal() wallet: WalletPrincipal, @Body() changes: UpdateNotificationSettingsDto) {
    return this.notifications.updateSettings(wallet.accountId, changes);
  }
}
