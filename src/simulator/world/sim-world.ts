import { SIMULATED_SERVICE_BUILDER, worldBuilders, WorldBuilders } from './builders';
import { buildCatalog, Catalog, Instrument } from './catalog';
import { MarketBook } from './market-book';
import { PriceModel } from './price-model';
import { simulatedAddresses, simulatedPrivateKey } from './wallet-keys';
import { generateWallet, WalletContext, WalletProfile } from './wallet-model';
import { SPOT_TOKENS, VAULT_NAMES } from './universe';

export interface SimWorldOptions {
  /** Number of trader wallets; the vaults come on top. */
  wallets: number;
  seed?: number;
  /** Prices change once per step. */
  priceStepMs?: number;
  /** The builder address of the service under test; SIMULATED_SERVICE_BUILDER unless set. */
  serviceBuilder?: string;
}

export const DEFAULT_SEED = 42;
export const DEFAULT_PRICE_STEP_MS = 2000;

/**
 * The one deterministic world every protocol reads from: instruments, prices over time, wallets and vaults.
 * Wallets are derived on demand from (seed, index); only addresses and the totals that need every wallet
 * (open interest, spot supply, who trades through which builder) are computed at start, so the same seed always
 * gives the same world. Every wallet and vault address is that of an ethers key derived from (seed, index).
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
  /** The service's builder and the OPC builders the wallets trade through. */
  readonly builders: WorldBuilders;
  readonly startupMs: number;
  private readonly addressIndex = new Map<string, number>();
  private readonly walletContext: WalletContext;
  /** Builder -> indexes (ascending) of the accounts with at least one position traded through it. */
  private readonly builderClients = new Map<string, number[]>();

  constructor(options: SimWorldOptions) {
    const started = performance.now();
    this.seed = options.seed ?? DEFAULT_SEED;
    this.walletCount = Math.max(2, Math.floor(options.wallets));
    this.catalog = buildCatalog(this.seed);
    this.prices = new PriceModel(this.catalog, this.seed, options.priceStepMs ?? DEFAULT_PRICE_STEP_MS);
    this.markets = new MarketBook(this.seed, this.catalog, this.prices);
    this.builders = worldBuilders(this.seed, options.serviceBuilder ?? SIMULATED_SERVICE_BUILDER);
    this.walletContext = { catalog: this.catalog, seed: this.seed, walletCount: this.walletCount, builders: this.builders };
    for (const builder of [this.builders.service, ...this.builders.opcs.map((opc) => opc.b)]) this.builderClients.set(builder, []);
    this.addresses = simulatedAddresses({ seed: this.seed, kind: 'wallet' }, this.walletCount);
    this.vaultAddresses = simulatedAddresses({ seed: this.seed, kind: 'vault' }, VAULT_NAMES.length);
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
      for (const { builder } of wallet.perps) {
        const clients = builder && this.builderClients.get(builder.b);
        if (clients && clients[clients.length - 1] !== i) clients.push(i);
      }
    }
    this.positionCount = positions;
    for (let id = 0; id < this.openInterest.length; id++) this.openInterest[id] /= 2;
    this.startupMs = performance.now() - started;
  }

  wallet(index: number): WalletProfile {
    return generateWallet(this.walletContext, index);
  }

  /** The ethers private key behind the trader wallet `addresses[index]`: a test key, public to anyone with the seed. */
  privateKey(index: number): string {
    if (!Number.isInteger(index) || index < 0 || index >= this.walletCount) throw new RangeError(`no trader wallet ${index}`);
    return simulatedPrivateKey({ seed: this.seed, kind: 'wallet' }, index);
  }

  /** Indexes (ascending) of the accounts trading through a builder; undefined for a builder this world does not know. */
  clientsOf(builder: string): readonly number[] | undefined {
    return this.builderClients.get(builder);
  }

  walletOf(address: string): WalletProfile | undefined {
    const index = this.addressIndex.get(address.toLowerCase());
    return index === undefined ? undefined : this.wallet(index);
  }

  instrument(coin: string): Instrument | undefined {
    return this.catalog.byCoin.get(coin);
  }
}
