import { byId, el } from './dom';
import { formatDateTime } from './format';
import type { Notification, NotificationsPage } from './types';

export interface NotificationsActions {
  markRead(notification: Notification): Promise<void>;
  markAllRead(): Promise<void>;
  failed(error: unknown): void;
}

/** The newest notifications with their unread marks, one "Mark read" each and "Mark all read". */
export class NotificationsView {
  private readonly list = byId('notifications-list', HTMLUListElement);
  private readonly empty = byId('notifications-empty', HTMLParagraphElement);
  private readonly unread = byId('notifications-unread', HTMLSpanElement);
  private readonly readAllButton = byId('read-all', HTMLButtonElement);
  private readonly heading = byId('notifications-heading', HTMLHeadingElement);
  private unreadCount = 0;

  constructor(private readonly actions: NotificationsActions) {
    this.readAllButton.addEventListener('click', () => void this.run(this.readAllButton, () => this.actions.markAllRead()));
  }

  render(page: NotificationsPage): void {
    this.list.replaceChildren(...page.items.map((item) => this.item(item)));
    this.empty.hidden = page.items.length > 0;
    this.unreadCount = page.unreadCount;
    this.unread.textContent = page.unreadCount === 0 ? 'all read' : `${page.unreadCount} unread`;
    this.readAllButton.disabled = page.unreadCount === 0;
  }

  clear(): void {
    this.render({ items: [], total: 0, hasMore: false, unreadCount: 0 });
  }

  private item(notification: Notification): HTMLLIElement {
    const li = el('li', undefined, notification.isRead ? 'note-item' : 'note-item unread');
    const text = el('div');
    text.append(el('p', notification.message, 'note-message'), el('p', `${notification.coin} · ${formatDateTime(notification.createdAt)}`, 'hint'));
    li.append(text);
    if (!notification.isRead) {
      const mark = el('button', 'Mark read', 'secondary');
      mark.type = 'button';
      mark.setAttribute('aria-label', `Mark read: ${notification.message}`);
      mark.addEventListener('click', async () => {
        await this.run(mark, () => this.actions.markRead(notification));
        // The button is gone after the re-render.
        this.heading.focus();
      });
      li.append(mark);
    }
    return li;
  }

  private async run(button: HTMLButtonElement, action: () => Promise<void>): Promise<void> {
    button.disabled = true;
    try {
      await action();
    } catch (error) {
      this.actions.failed(error);
    } finally {
      // "Mark all read" stays off while nothing is unread.
      button.disabled = button === this.readAllButton && this.unreadCount === 0;
    }
  }
}
