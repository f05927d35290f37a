import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { assertWithinOffsetCap, offsetOf } from '../../common/pagination/offset-cap';
import { toPage } from '../../common/pagination/page.dto';
import { NotificationDto, NotificationsPageDto, ReadAllResultDto, UnreadIndicatorDto } from './dto/notification.dto';
import { NotificationSettingsDto, UpdateNotificationSettingsDto } from './dto/notification-settings.dto';
import { NotificationsQueryDto } from './dto/notifications.query.dto';
import { withDefaults } from './notification-settings';
import { NotificationRow, NotificationsRepository } from './notifications.repository';

/** Ids are bigserial: anything but 1 to 18 digits names no notification (and must not reach a bigint cast). */
const NOTIFICATION_ID = /^[1-9]\d{0,17}$/;

/**
 * An account's notifications: the key holder's reads (contract 4.6) and the wallet's marks and settings.
 * Every read goes to the database, so a mark or a save shows on the next read.
 */
@Injectable()
export class NotificationsService {
  constructor(private readonly repository: NotificationsRepository) {}

  async list(accountId: string, query: NotificationsQueryDto): Promise<NotificationsPageDto> {
    const { page, limit, order, type, coin } = query;
    assertWithinOffsetCap(page, limit);
    const filter = { type, coin, isRead: query.isRead === undefined ? undefined : query.isRead === 'true' };
    const [rows, { total, unread }] = await Promise.all([
      this.repository.list({ accountId, filter, order, offset: offsetOf(page, limit), take: limit }),
      this.repository.counts(accountId, filter),
    ]);
    return { ...toPage({ items: rows.map(toDto), page, limit, total }), total, unreadCount: unread };
  }

  async unread(accountId: string): Promise<UnreadIndicatorDto> {
    const count = await this.repository.countUnread(accountId);
    return { unread: count > 0, count };
  }

  /** Another account's notification, an unknown id and a malformed one all answer the same 404. */
  async markRead(accountId: string, id: string): Promise<NotificationDto> {
    const row = NOTIFICATION_ID.test(id) ? await this.repository.markRead(accountId, id) : null;
    if (row === null) throw AppError.notFound(`notification ${id}`);
    return toDto(row);
  }

  async markAllRead(accountId: string): Promise<ReadAllResultDto> {
    return { marked: await this.repository.markAllRead(accountId) };
  }

  async getSettings(accountId: string): Promise<NotificationSettingsDto> {
    return withDefaults(await this.repository.getSettings(accountId));
  }

  async updateSettings(accountId: string, changes: UpdateNotificationSettingsDto): Promise<NotificationSettingsDto> {
    return withDefaults(await this.repository.mergeSettings(accountId, { ...changes }));
  }
}

function toDto(row: NotificationRow): NotificationDto {
  return { id: row.id, type: row.type, coin: row.coin, message: row.message, isRead: row.isRead, createdAt: row.createdAt.toISOString() };
}
