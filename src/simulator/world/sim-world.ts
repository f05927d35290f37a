import { buildCatalog, Catalog, Instrument } from './catalog';
import { MarketBook } from './market-book';
import { PriceModel } from './price-model';
import { deriveAddress } from './prng';
import { generateWallet, WalletProfile } from './wallet-model';
import { SPOT_TOKENS, VAULT_NAMES } from './universe';

export interface SimWorldOptions {
  /** Number of trader wallets; the vaults come on top. */
  wallets: number;
  seed?: number;
  /** Prices change once per step. */
  priceStepMs?: number;
}

export const DEFAULT_SEED = 42;
export const DEFAULT_PRICE_STEP_MS = 2000;

/**
 * The one deterministic world every protocol reads from: instruments, prices over time, wallets and vaults.
 * Wallets are derived on demand from (seed, index); only addresses and the totals that need every wallet
 * (open interest, spot supply) are computed at start, so the same seed always gives the same world.
 */
export class SimWorld {
  readonly seed: number;
  readonly walletCount: number;
  readonly catalog: Catalog;
  readonly prices: PriceModel;
  /** Coins and stock-market listings beyond the Hyperliquid catalog, on the same price paths. */
  readonly markets: MarketBook;
  /** Wallets first, then vaults. */
  readonly addresses: string[];
  readonly vaultAddresses: string[];
  readonly positionCount: number;
  /** Open interest per instrument id: one side, half the summed |size| of longs and shorts, as exchanges count it. */
  readonly openInterest: Float64Array;
  /** Summed balances per spot token index. */
  readonly spotHeld: Float64Array;
  readonly startupMs: number;
  private readonly addressIndex = new Map<string, number>();

  constructor(options: SimWorldOptions) {
    const started = performance.now();
    this.seed = options.seed ?? DEFAULT_SEED;
    this.walletCount = Math.max(2, Math.floor(options.wallets));
    this.catalog = buildCatalog(this.seed);
    this.prices = new PriceModel(this.catalog, this.seed, options.priceStepMs ?? DEFAULT_PRICE_STEP_MS);
    this.markets = new MarketBook(this.seed, this.catalog, this.prices);
    this.addresses = [];
    for (let i = 0; i < this.walletCount; i++) this.addresses.push(deriveAddress(this.seed, 'wallet', i));
    this.vaultAddresses = VAULT_NAMES.map((_, k) => deriveAddress(this.seed, 'vault', k));
    this.addresses.push(...this.vaultAddresses);
    this.addresses.forEach((address, index) => this.addressIndex.set(address, index));

    this.openInterest = new Float64Array(this.catalog.instruments.length);
    this.spotHeld = new Float64Array(SPOT_TOKENS.length);
    let positions = 0;
    for (let i = 0; i < this.addresses.length; i++) {
      const wallet = this.wallet(i);
      positions += wallet.perps.length;
      for (const slot of wallet.perps) this.openInterest[slot.instrument.id] += slot.size;
      for (const holding of wallet.spot) this.spotHeld[holding.token] += holding.total;
    }
    this.positionCount = positions;
    for (let id = 0; id < this.openInterest.length; id++) this.openInterest[id] /= 2;
    this.startupMs = performance.now() - started;
  }

  wallet(index: number): WalletProfile {
    return generateWallet(this.catalog, this.seed, this.walletCount, index);
  }

  walletOf(address: string): WalletProfile | undefined {
    const index = this.addressIndex.get(address.toLowerCase());
    return index === undefined ? undefined : this.wallet(index);
  }

  instrument(coin: string): Instrument | undefined {
    return this.catalog.byCoin.get(coin);
  }
}
