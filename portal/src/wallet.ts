import { createStore } from 'mipd';

/** The part of EIP-1193 the page uses. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
  on?(event: string, listener: (...args: unknown[]) => void): void;
  removeListener?(event: string, listener: (...args: unknown[]) => void): void;
}

export interface WalletChoice {
  id: string;
  name: string;
  /** A data: URI (EIP-6963 requires it), so the page's img-src allows it. */
  icon?: string;
  provider: Eip1193Provider;
}

export interface ConnectedWallet {
  address: string;
  name: string;
  provider: Eip1193Provider;
  signMessage(message: string): Promise<string>;
}

/** Wallets answer the discovery request at once; one that injects late gets this long after a re-request. */
const LATE_ANNOUNCE_WAIT_MS = 250;

// Created at load, so announcements made before the first click are already collected.
const store = createStore();

/** Every EIP-6963 wallet in the browser, or the legacy `window.ethereum` when none announces itself. */
export async function discoverWallets(): Promise<WalletChoice[]> {
  if (store.getProviders().length === 0) {
    store.reset();
    await new Promise((resolve) => setTimeout(resolve, LATE_ANNOUNCE_WAIT_MS));
  }
  const announced = store.getProviders().map(({ info, provider }) => ({
    id: info.uuid,
    name: info.name,
    icon: info.icon.startsWith('data:image/') ? info.icon : undefined,
    provider: provider as unknown as Eip1193Provider,
  }));
  if (announced.length > 0) return announced;
  const legacy = (window as Window & { ethereum?: Eip1193Provider }).ethereum;
  return legacy ? [{ id: 'window.ethereum', name: 'Browser wallet', provider: legacy }] : [];
}

export async function connectWallet(choice: WalletChoice): Promise<ConnectedWallet> {
  const accounts = await choice.provider.request({ method: 'eth_requestAccounts' });
  const address = Array.isArray(accounts) && typeof accounts[0] === 'string' ? accounts[0] : undefined;
  if (!address) throw new Error('wallet: no account was shared with the page');
  return {
    address,
    name: choice.name,
    provider: choice.provider,
    signMessage: async (message) => {
      // MetaMask and most wallets take the UTF-8 bytes hex-encoded, then show them decoded to the user.
      const signature = await choice.provider.request({ method: 'personal_sign', params: [toHex(message), address] });
      if (typeof signature !== 'string') throw new Error('wallet: no signature returned');
      return signature;
    },
  };
}

/** A wallet's own error (EIP-1193 code 4001: the user said no) in words for the page. */
export function walletErrorMessage(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === 4001) return 'wallet: the request was rejected';
  return typeof message === 'string' && message !== '' ? message : 'wallet: the request failed';
}

function toHex(text: string): string {
  let hex = '0x';
  for (const byte of new TextEncoder().encode(text)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
