import { ApiError } from './api';
import { byId, el } from './dom';
import { formatDecimal, nextReset } from './format';
import { KeysView, nameOf } from './keys';
import { SessionEndedError, WalletSession } from './session';
import { NotificationsView } from './notifications';
import type { Account, ApiKey, CreatedKey, NotificationsPage, Usage, WatchlistGroup } from './types';
import { UsageView } from './usage';
import { ConnectedWallet, connectWallet, discoverWallets, walletErrorMessage, WalletChoice } from './wallet';
import { WatchlistView } from './watchlist';

const USAGE_DAYS = 30;
const NOTIFICATIONS_SHOWN = 20;

const errorNotice = byId('error-notice', HTMLParagraphElement);
const statusNotice = byId('status-notice', HTMLParagraphElement);
const connectView = byId('connect-view', HTMLElement);
const connectButton = byId('connect', HTMLButtonElement);
const walletChoices = byId('wallet-choices', HTMLDivElement);
const walletList = byId('wallet-list', HTMLUListElement);
const connectedAs = byId('connected-as', HTMLParagraphElement);
const signInButton = byId('sign-in', HTMLButtonElement);
const dashboard = byId('dashboard', HTMLDivElement);
const sessionBar = byId('session-bar', HTMLDivElement);
const sessionAddress = byId('session-address', HTMLSpanElement);
const signOutButton = byId('sign-out', HTMLButtonElement);
const refreshUsageButton = byId('refresh-usage', HTMLButtonElement);
const accountFields = {
  tier: byId('account-tier', HTMLElement),
  rpm: byId('account-rpm', HTMLElement),
  balance: byId('account-balance', HTMLElement),
  reset: byId('account-reset', HTMLElement),
};

let wallet: ConnectedWallet | undefined;
const session = new WalletSession((reason) => {
  showSignedOut();
  showError(reason);
});
const usage = new UsageView();
const keys = new KeysView({
  create: async (name) => {
    errorNotice.textContent = '';
    try {
      return await session.call<CreatedKey>('/api/v1/keys', { method: 'POST', body: { name } });
    } finally {
      // Also after a refusal: keys made elsewhere (another tab, the CLI) may be why.
      void loadKeys().catch(showError);
    }
  },
  revoke: async (key) => {
    errorNotice.textContent = '';
    await session.call<ApiKey>(`/api/v1/keys/${encodeURIComponent(String(key.id))}`, { method: 'DELETE' });
    showStatus(`Key ${nameOf(key)} (${key.prefix}) revoked.`);
    await loadKeys();
  },
  failed: showError,
});

const watchlist = new WatchlistView({
  createGroup: async (name) => {
    await session.call('/api/v1/watchlist', { method: 'POST', body: { name } });
    await loadWatchlist();
  },
  addCoin: async (group, coin) => {
    await session.call(`/api/v1/watchlist/${encodeURIComponent(group.id)}/entries`, { method: 'POST', body: { coin } });
    await loadWatchlist();
  },
  removeCoin: async (group, coin) => {
    await session.call(`/api/v1/watchlist/${encodeURIComponent(group.id)}/entries/${encodeURIComponent(coin)}`, { method: 'DELETE' });
    await loadWatchlist();
  },
  failed: showError,
});
const notifications = new NotificationsView({
  markRead: async (notification) => {
    await session.call(`/api/v1/notifications/${encodeURIComponent(notification.id)}/read`, { method: 'POST' });
    await loadNotifications();
  },
  markAllRead: async () => {
    await session.call('/api/v1/notifications/read-all', { method: 'POST' });
    await loadNotifications();
  },
  failed: showError,
});

function showError(error: unknown): void {
  // The session has already said why it ended.
  if (error instanceof SessionEndedError) return;
  statusNotice.textContent = '';
  errorNotice.textContent = typeof error === 'string' ? error : error instanceof ApiError ? error.message : walletErrorMessage(error);
}

function showStatus(message: string): void {
  errorNotice.textContent = '';
  statusNotice.textContent = message;
}

/** Runs a button's action once at a time, with its failure shown in the notice. */
async function run(button: HTMLButtonElement, action: () => Promise<void>): Promise<void> {
  button.disabled = true;
  errorNotice.textContent = '';
  try {
    await action();
  } catch (error) {
    showError(error);
  } finally {
    button.disabled = false;
  }
}

async function chooseWallet(choice: WalletChoice): Promise<void> {
  wallet = await connectWallet(choice);
  walletChoices.hidden = true;
  connectedAs.textContent = `Connected: ${wallet.address} (${wallet.name})`;
  connectedAs.hidden = false;
  signInButton.disabled = false;
  signInButton.focus();
  const connected = wallet;
  // Another account picked in the wallet: this page no longer speaks for the signed-in one.
  choice.provider.on?.('accountsChanged', (accounts) => {
    const current = Array.isArray(accounts) ? accounts[0] : undefined;
    if (wallet !== connected || (typeof current === 'string' && current.toLowerCase() === connected.address.toLowerCase())) return;
    void signOut('The wallet switched accounts: signed out.');
  });
}

function showChoices(choices: readonly WalletChoice[]): void {
  walletList.replaceChildren(
    ...choices.map((choice) => {
      const button = el('button', undefined, 'wallet-choice');
      button.type = 'button';
      if (choice.icon) {
        const icon = el('img');
        icon.src = choice.icon;
        icon.alt = '';
        button.append(icon);
      }
      button.append(el('span', choice.name));
      button.addEventListener('click', () => void run(button, () => chooseWallet(choice)));
      const item = el('li');
      item.append(button);
      return item;
    }),
  );
  walletChoices.hidden = false;
  walletList.querySelector('button')?.focus();
}

async function loadAccount(): Promise<void> {
  const account = await session.call<Account>('/api/v1/account');
  accountFields.tier.textContent = account.tier;
  accountFields.rpm.textContent = `${account.rpm} requests a minute, per key`;
  const { balance, resetAnchorAt } = account.credits;
  accountFields.balance.textContent = balance === null ? 'not metered' : `${formatDecimal(balance)} credits`;
  // Only paid tiers spend credits (README: admission); a Free balance of 0 is not a problem to flag.
  if (account.tier === 'Free') accountFields.balance.append(el('span', 'Calls on Free cost no credits.', 'note'));
  const next = resetAnchorAt ? nextReset(resetAnchorAt) : undefined;
  accountFields.reset.replaceChildren(
    ...(next ? [el('span', next.toISOString().slice(0, 10), 'nowrap'), el('span', 'then monthly (UTC)', 'note')] : [el('span', 'none')]),
  );
}

async function loadKeys(): Promise<void> {
  keys.render(await session.call<ApiKey[]>('/api/v1/keys'));
}

async function loadUsage(): Promise<void> {
  usage.render(await session.call<Usage>(`/api/v1/usage?days=${USAGE_DAYS}`));
}

async function loadWatchlist(): Promise<void> {
  watchlist.render(await session.call<WatchlistGroup[]>('/api/v1/watchlist'));
}

async function loadNotifications(): Promise<void> {
  notifications.render(await session.call<NotificationsPage>(`/api/v1/notifications?limit=${NOTIFICATIONS_SHOWN}`));
}

async function showDashboard(address: string): Promise<void> {
  connectView.hidden = true;
  dashboard.hidden = false;
  sessionBar.hidden = false;
  sessionAddress.textContent = address;
  sessionAddress.title = address;
  byId('account-heading', HTMLHeadingElement).focus();
  const results = await Promise.allSettled([loadAccount(), loadKeys(), loadUsage(), loadWatchlist(), loadNotifications()]);
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) showError(failure.reason);
}

function showSignedOut(): void {
  wallet = undefined;
  keys.clear();
  usage.clear();
  watchlist.clear();
  notifications.clear();
  for (const field of Object.values(accountFields)) field.textContent = '';
  dashboard.hidden = true;
  sessionBar.hidden = true;
  sessionAddress.textContent = '';
  connectView.hidden = false;
  connectedAs.hidden = true;
  walletChoices.hidden = true;
  signInButton.disabled = true;
  connectButton.focus();
}

async function signOut(message: string): Promise<void> {
  try {
    await session.signOut();
  } finally {
    showSignedOut();
    showStatus(message);
  }
}

connectButton.addEventListener('click', () =>
  run(connectButton, async () => {
    const choices = await discoverWallets();
    if (choices.length === 0) throw new Error('No wallet found: install a browser wallet (for example MetaMask), then reload this page.');
    if (choices.length === 1) await chooseWallet(choices[0]);
    else showChoices(choices);
  }),
);
signInButton.addEventListener('click', () =>
  run(signInButton, async () => {
    if (!wallet) return;
    await session.signIn(wallet);
    statusNotice.textContent = '';
    await showDashboard(wallet.address);
  }),
);
signOutButton.addEventListener('click', () => run(signOutButton, () => signOut('Signed out.')));
refreshUsageButton.addEventListener('click', () =>
  run(refreshUsageButton, async () => {
    // Keys too: their "last used" moves with the calls the chart counts.
    await Promise.all([loadUsage(), loadKeys(), loadAccount(), loadNotifications()]);
    showStatus(`Refreshed at ${new Date().toISOString().slice(11, 19)} UTC.`);
  }),
);
const refreshNotificationsButton = byId('refresh-notifications', HTMLButtonElement);
refreshNotificationsButton.addEventListener('click', () =>
  run(refreshNotificationsButton, async () => {
    await loadNotifications();
    showStatus(`Notifications refreshed at ${new Date().toISOString().slice(11, 19)} UTC.`);
  }),
);
