import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SortOrder } from '../../common/pagination/sort-order';
import { NotificationSettings } from './notification-settings';
import { NotificationType } from './notification-types';

export interface NotificationRow {
  id: string;
  type: NotificationType;
  coin: string;
  message: string;
  isRead: boolean;
  createdAt: Date;
}

export interface NotificationFilter {
  isRead?: boolean;
  type?: NotificationType;
  coin?: string;
}

export interface NewNotification {
  accountId: string;
  type: NotificationType;
  coin: string;
  message: string;
  /** Defaults to the database's now(). */
  createdAt?: Date;
}

const COLUMNS = `id::text AS id, type, coin, message, is_read AS "isRead", created_at AS "createdAt"`;

/** All SQL of an account's notifications and its alert settings. */
@Injectable()
export class NotificationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list({
    accountId,
    filter,
    order,
    offset,
    take,
  }: {
    accountId: string;
    filter: NotificationFilter;
    order: SortOrder;
    offset: number;
    take: number;
  }): Promise<NotificationRow[]> {
    const { where, params } = filterSql(accountId, filter);
    const direction = order === 'asc' ? 'ASC' : 'DESC';
    return this.db.query(
      // notifications.id, not the text output column `id` a bare name would sort by (and no index serves).
      `SELECT ${COLUMNS} FROM notifications WHERE ${where}
       ORDER BY created_at ${direction}, notifications.id ${direction} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, take, offset],
    );
  }

  /** Rows matching the filter and the account's unread rows whatever the filter, in one pass over the account's rows. */
  async counts(accountId: string, filter: NotificationFilter): Promise<{ total: number; unread: number }> {
    const { where, params } = filterSql(accountId, filter);
    const [row]: Array<{ total: number; unread: number }> = await this.db.query(
      `SELECT count(*) FILTER (WHERE ${where})::int AS total, count(*) FILTER (WHERE NOT is_read)::int AS unread
       FROM notifications WHERE account_id = $1`,
      params,
    );
    return row;
  }

  async countUnread(accountId: string): Promise<number> {
    const [row]: Array<{ unread: number }> = await this.db.query(`SELECT count(*)::int AS unread FROM notifications WHERE account_id = $1 AND NOT is_read`, [
      accountId,
    ]);
    return row.unread;
  }

  /** Marks one of the account's notifications read (keeping the first read time); null when the account has no such id. */
  async markRead(accountId: string, id: string): Promise<NotificationRow | null> {
    // Wrapped in a SELECT: TypeORM answers a bare UPDATE ... RETURNING with [rows, count].
    const rows: NotificationRow[] = await this.db.query(
      `WITH marked AS (
         UPDATE notifications SET is_read = true, read_at = coalesce(read_at, now())
          WHERE account_id = $1 AND id = $2::bigint RETURNING *
       )
       SELECT ${COLUMNS} FROM marked`,
      [accountId, id],
    );
    return rows[0] ?? null;
  }

  /** Marks every unread notification of the account read; answers how many it marked. */
  async markAllRead(accountId: string): Promise<number> {
    const [{ marked }]: Array<{ marked: number }> = await this.db.query(
      `WITH marked AS (
         UPDATE notifications SET is_read = true, read_at = now() WHERE account_id = $1 AND NOT is_read RETURNING 1
       )
       SELECT count(*)::int AS marked FROM marked`,
      [accountId],
    );
    return marked;
  }

  async insert(notifications: readonly NewNotification[]): Promise<void> {
    if (notifications.length === 0) return;
    await this.db.query(
      `INSERT INTO notifications (account_id, type, coin, message, created_at)
       SELECT account_id, type, coin, message, coalesce(created_at, now())
       FROM jsonb_to_recordset($1::jsonb) AS n(account_id uuid, type text, coin text, message text, created_at timestamptz)`,
      [
        JSON.stringify(
          notifications.map((n) => ({ account_id: n.accountId, type: n.type, coin: n.coin, message: n.message, created_at: n.createdAt ?? null })),
        ),
      ],
    );
  }

  async getSettings(accountId: string): Promise<Partial<NotificationSettings> | null> {
    const rows: Array<{ settings: Partial<NotificationSettings> }> = await this.db.query(`SELECT settings FROM notification_settings WHERE account_id = $1`, [
      accountId,
    ]);
    return rows[0]?.settings ?? null;
  }

  /** Merges the given fields over the stored ones in one statement, so two concurrent saves of different fields both stick. */
  async mergeSettings(accountId: string, changes: Partial<NotificationSettings>): Promise<Partial<NotificationSettings>> {
    const [row]: Array<{ settings: Partial<NotificationSettings> }> = await this.db.query(
      `INSERT INTO notification_settings (account_id, settings) VALUES ($1, $2::jsonb)
       ON CONFLICT (account_id) DO UPDATE SET settings = notification_settings.settings || EXCLUDED.settings, updated_at = now()
       RETURNING settings`,
      [accountId, JSON.stringify(changes)],
    );
    return row.settings;
  }
}

/** The WHERE of the list: the account first ($1), then each filter given. */
function filterSql(accountId: string, filter: NotificationFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [accountId];
  const clauses = ['account_id = $1'];
  if (filter.isRead !== undefined) clauses.push(`is_read = $${params.push(filter.isRead)}`);
  if (filter.type !== undefined) clauses.push(`type = $${params.push(filter.type)}`);
  if (filter.coin !== undefined) clauses.push(`coin = $${params.push(filter.coin)}`);
  return { where: clauses.join(' AND '), params };
}
