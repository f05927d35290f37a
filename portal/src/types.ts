/** The backend API's answers (`/api/v1`), as the page reads them. */
export interface Envelope<T> {
  code: string;
  msg: string;
  data: T;
}

export interface Challenge {
  message: string;
  nonce: string;
}

export interface SessionToken {
  token: string;
  /** ISO 8601. */
  expiresAt: string;
}

export interface Account {
  walletAddress: string;
  tier: 'Free' | 'Pro' | 'Max';
  rpm: number;
  /** Decimal strings; the balance is null on a tier that is never metered. */
  credits: { balance: string | null; resetAnchorAt: string | null };
  keyPrefix: string | null;
}

export interface ApiKey {
  id: string | number;
  /** null for keys the ops CLI issued. */
  name: string | null;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  status: 'active' | 'revoked';
}

export interface CreatedKey extends ApiKey {
  /** The plaintext key: the only time the server sends it. */
  key: string;
}

export interface EndpointUsage {
  endpoint: string;
  calls: number;
  credits: string;
}

export interface UsageDay {
  /** YYYY-MM-DD, UTC. */
  date: string;
  calls: number;
  credits: string;
  endpoints: EndpointUsage[];
}

export interface Usage {
  from: string;
  to: string;
  days: UsageDay[];
}

export interface WatchlistEntry {
  coin: string;
  addedAt: string;
}

export interface WatchlistGroup {
  id: string;
  name: string;
  entryCount: number;
  entries: WatchlistEntry[];
}

export interface Notification {
  id: string;
  type: string;
  coin: string;
  message: string;
  isRead: boolean;
  createdAt: string;
}

export interface NotificationsPage {
  items: Notification[];
  total: number;
  hasMore: boolean;
  unreadCount: number;
}
