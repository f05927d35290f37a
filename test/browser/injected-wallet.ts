import { BaseWallet, getBytes, isHexString, Wallet } from 'ethers';
import type { Page } from 'playwright-core';

export interface InjectedWalletOptions {
  name?: string;
  /** Answer EIP-6963 discovery (an extension of today); false: only `window.ethereum`, as older ones do. */
  announce?: boolean;
  /** Take `window.ethereum` too (when several wallets are installed, one of them holds it). */
  legacy?: boolean;
}

/** An EIP-6963 icon must be a data: URI. */
const ICON = 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"%3E%3Ccircle cx="5" cy="5" r="5" fill="%232563eb"/%3E%3C/svg%3E';

/**
 * An EIP-1193 wallet in the page, backed by an ethers Wallet in the test: the page's requests cross to
 * node through an exposed function, and the wallet answers EIP-6963 discovery as an extension would
 * (and/or sits at `window.ethereum`). Every message it signs is kept, decoded, in `signed`.
 */
export class InjectedWallet {
  private static installed = 0;
  readonly signed: string[] = [];
  readonly name: string;
  private readonly announce: boolean;
  private readonly legacy: boolean;

  constructor(
    { name = 'Test Wallet', announce = true, legacy = true }: InjectedWalletOptions = {},
    readonly wallet: BaseWallet = Wallet.createRandom(),
  ) {
    Object.assign(this, { name, announce, legacy });
  }

  get address(): string {
    return this.wallet.address;
  }

  async install(page: Page): Promise<void> {
    const bridge = `__walletRequest${InjectedWallet.installed++}`;
    await page.exposeFunction(bridge, (args: { method: string; params?: unknown[] }) => this.request(args));
    const info = { uuid: crypto.randomUUID(), name: this.name, icon: ICON, rdns: `org.example.${bridge.toLowerCase()}` };
    // Text, run in the page before its own scripts as a wallet's content script would (the tests compile without the DOM's types).
    await page.addInitScript({
      content: `(() => {
        const provider = { request: (args) => window.${bridge}(args), on() {}, removeListener() {} };
        if (${this.legacy}) window.ethereum = provider;
        if (!${this.announce}) return;
        const detail = Object.freeze({ info: Object.freeze(${JSON.stringify(info)}), provider });
        const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
        window.addEventListener('eip6963:requestProvider', announce);
        announce();
      })();`,
    });
  }

  private async request({ method, params = [] }: { method: string; params?: unknown[] }): Promise<unknown> {
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return [this.address];
      case 'eth_chainId':
        return '0x1';
      case 'personal_sign': {
        const [data, address] = params as [string, string];
        if (address.toLowerCase() !== this.address.toLowerCase()) throw new Error(`personal_sign: not this wallet's address (${address})`);
        // MetaMask-style callers send the UTF-8 bytes hex-encoded; plain text is accepted as well.
        const message = isHexString(data) ? getBytes(data) : data;
        this.signed.push(typeof message === 'string' ? message : Buffer.from(message).toString('utf8'));
        return this.wallet.signMessage(message);
      }
      default:
        throw new Error(`test wallet: ${method} is not supported`);
    }
  }
}
