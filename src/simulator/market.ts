import { buildCatalog, Catalog, Instrument } from './catalog';
import { PriceModel } from './price-model';
import { MarketMeta } from './market-meta';
import { clearinghouseStateBody, perpAccount, spotClearinghouseStateBody } from './account-state';
import { fillBody, MAX_FILLS_PER_RESPONSE, walletFills } from './fills';
import { l2Book, recentTrades } from './trades';
import { buildLeaderboard, LEADERBOARD_REFRESH_MS, totalAccountValue, vaultsBody } from './leaderboard';
import { deriveAddress, hash2, unit } from './prng';
import { emptyWallet, generateWallet, WalletProfile } from './wallet-model';
import { SPOT_TOKENS, VAULT_NAMES } from './universe';

export interface SimMarketOptions {
  /** Number of trader wallets; the vaults come on top. */
  wallets: number;
  seed?: number;
  /** Prices change once per step. */
  priceStepMs?: number;
}

export const DEFAULT_SEED = 42;
export const DEFAULT_PRICE_STEP_MS = 2000;
/**
 * Fills older than this are gone, as upstream keeps only the most recent fills; it also bounds the work of a
 * request with startTime 0 to about a month of cycles.
 */
export const FILL_HISTORY_MS = 30 * 86_400_000;
const VAULT_EPOCH_MS = 1_700_000_000_000;

/** Raised for a request the upstream would refuse; the server turns it into that status and body. */
export class SimRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly contentType: 'text/plain' | 'application/json' = 'text/plain',
  ) {
    super(body);
  }
}

/**
 * The whole synthetic exchange. Wallets are derived on demand from (seed, index); only addresses and the
 * totals that need every wallet (open interest, spot supply) are computed at start.
 */
export class SimMarket {
  readonly seed: number;
  readonly walletCount: number;
  readonly catalog: Catalog;
  readonly prices: PriceModel;
  /** Wallets first, then vaults. */
  readonly addresses: string[];
  readonly vaultAddresses: string[];
  readonly positionCount: number;
  readonly startupMs: number;
  private readonly addressIndex = new Map<string, number>();
  private readonly meta: MarketMeta;
  private leaderboardCache: { bucket: number; body: Promise<Buffer> } | null = null;

  constructor(options: SimMarketOptions) {
    const started = performance.now();
    this.seed = options.seed ?? DEFAULT_SEED;
    this.walletCount = Math.max(2, Math.floor(options.wallets));
    this.catalog = buildCatalog(this.seed);
    this.prices = new PriceModel(this.catalog, this.seed, options.priceStepMs ?? DEFAULT_PRICE_STEP_MS);
    this.addresses = [];
    for (let i = 0; i < this.walletCount; i++) this.addresses.push(deriveAddress(this.seed, 'wallet', i));
    this.vaultAddresses = VAULT_NAMES.map((_, k) => deriveAddress(this.seed, 'vault', k));
    this.addresses.push(...this.vaultAddresses);
    this.addresses.forEach((address, index) => this.addressIndex.set(address, index));

    const openInterest = new Float64Array(this.catalog.instruments.length);
    const spotHeld = new Float64Array(SPOT_TOKENS.length);
    let positions = 0;
    for (let i = 0; i < this.addresses.length; i++) {
      const wallet = this.wallet(i);
      positions += wallet.perps.length;
      for (const slot of wallet.perps) openInterest[slot.instrument.id] += slot.size;
      for (const holding of wallet.spot) spotHeld[holding.token] += holding.total;
    }
    this.positionCount = positions;
    // Like the exchange's, open interest counts one side: half the summed |size| of longs and shorts.
    for (let id = 0; id < openInterest.length; id++) openInterest[id] /= 2;
    this.meta = new MarketMeta(this.catalog, this.prices, openInterest, spotHeld);
    this.startupMs = performance.now() - started;
  }

  wallet(index: number): WalletProfile {
    return generateWallet(this.catalog, this.seed, this.walletCount, index);
  }

  walletOf(address: string): WalletProfile | undefined {
    const index = this.addressIndex.get(address.toLowerCase());
    return index === undefined ? undefined : this.wallet(index);
  }

  /** Dex index for a `dex` request field: absent or "" is the native dex; an unknown name fails like upstream (500 null). */
  dexIndex(dex: string | undefined): number {
    const index = this.catalog.dexNames.indexOf(dex ?? '');
    if (index < 0) throw new SimRequestError(500, 'null', 'application/json');
    return index;
  }

  instrument(coin: string): Instrument | undefined {
    return this.catalog.byCoin.get(coin);
  }

  allMids(t: number, dex?: string): object {
    return this.meta.allMids(this.dexIndex(dex), t);
  }

  metaInfo(dex?: string): object {
    return this.meta.meta(this.dexIndex(dex));
  }

  metaAndAssetCtxs(t: number, dex?: string): object {
    return this.meta.metaAndAssetCtxs(this.dexIndex(dex), t);
  }

  spotMeta(): object {
    return this.meta.spotMeta();
  }

  spotMetaAndAssetCtxs(t: number): object {
    return this.meta.spotMetaAndAssetCtxs(t);
  }

  perpDexs(): object {
    return this.meta.perpDexs();
  }

  outcomeMeta(): object {
    return this.meta.outcomeMeta();
  }

  /** Unknown users get the empty account, as upstream does for any address. */
  clearinghouseState(user: string, t: number, dex?: string): object {
    const dexIndex = this.dexIndex(dex);
    const wallet = this.walletOf(user) ?? emptyWallet(-1);
    return clearinghouseStateBody(perpAccount(this.prices, wallet, dexIndex, t), t);
  }

  spotClearinghouseState(user: string, t: number): object {
    return spotClearinghouseStateBody(this.prices, this.walletOf(user), t);
  }

  /** Oldest first from startTime (at most FILL_HISTORY_MS back), at most 2000: page on by the last time returned. */
  userFillsByTime(user: string, startTime: number, endTime: number | undefined, t: number): object[] {
    const from = Math.max(startTime, t - FILL_HISTORY_MS);
    const to = Math.min(endTime ?? t, t);
    return walletFills(this.prices, this.walletOf(user), from, to).slice(0, MAX_FILLS_PER_RESPONSE).map(fillBody);
  }

  /** Newest first, at most 2000, like the recorded `userFills`. */
  userFills(user: string, t: number): object[] {
    const fills = walletFills(this.prices, this.walletOf(user), t - FILL_HISTORY_MS, t);
    return fills.reverse().slice(0, MAX_FILLS_PER_RESPONSE).map(fillBody);
  }

  recentTrades(coin: string, t: number): object[] {
    const instrument = this.instrument(coin);
    if (!instrument || instrument.perp?.isDelisted) return [];
    return recentTrades(this.prices, instrument, this.addresses, this.walletCount, t);
  }

  l2Book(coin: string, t: number): object | null {
    const instrument = this.instrument(coin);
    return instrument ? l2Book(this.prices, instrument, t) : null;
  }

  /** The leaderboard document (vaults included), valued at the start of its refresh period and built once per period. */
  leaderboardJson(t: number): Promise<Buffer> {
    const bucket = Math.floor(t / LEADERBOARD_REFRESH_MS);
    if (this.leaderboardCache?.bucket !== bucket) {
      this.leaderboardCache = { bucket, body: buildLeaderboard(this, bucket * LEADERBOARD_REFRESH_MS) };
    }
    return this.leaderboardCache.body;
  }

  vaults(t: number): object[] {
    const at = Math.floor(t / LEADERBOARD_REFRESH_MS) * LEADERBOARD_REFRESH_MS;
    const marks = this.prices.pricesAtStep(this.prices.step(at));
    return vaultsBody(
      this.vaultAddresses.map((address, k) => {
        const wallet = this.wallet(this.walletCount + k);
        return {
          name: VAULT_NAMES[k],
          address,
          leader: this.addresses[hash2(this.seed, 0x1ead + k) % this.walletCount],
          tvl: Math.max(0, totalAccountValue(this.prices, wallet, marks, at)),
          createTimeMillis: VAULT_EPOCH_MS + Math.floor(unit(hash2(this.seed, 0xc0de + k)) * 30 * 86_400_000),
          apr: Number((0.05 + 0.4 * unit(hash2(this.seed, 0xa9 + k))).toFixed(6)),
        };
      }),
    );
  }
}
