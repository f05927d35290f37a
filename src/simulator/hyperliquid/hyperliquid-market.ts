import { Instrument } from '../world/catalog';
import { MarketMeta } from './market-meta';
import { clearinghouseStateBody, perpAccount, spotClearinghouseStateBody } from './account-state';
import { fillBody, MAX_FILLS_PER_RESPONSE, walletFills } from './fills';
import { builderFillsFile, fileDayStart } from './builder-fills';
import { l2Book, recentTrades } from './trades';
import { buildLeaderboard, LEADERBOARD_REFRESH_MS, totalAccountValue, vaultsBody } from './leaderboard';
import { hash2, unit } from '../world/prng';
import { emptyWallet } from '../world/wallet-model';
import { VAULT_NAMES } from '../world/universe';
import { SimWorld } from '../world/sim-world';
import { SimRequestError } from '../sim-request-error';

/**
 * Fills older than this are gone, as upstream keeps only the most recent fills; it also bounds the work of a
 * request with startTime 0 to about a month of cycles.
 */
export const FILL_HISTORY_MS = 30 * 86_400_000;
const DAY_MS = 86_400_000;
const VAULT_EPOCH_MS = 1_700_000_000_000;
/** Bytes of builder files kept built (a past day never changes); 10,000 wallets make ~6 MB a day for the service. */
const BUILDER_FILE_CACHE_BYTES = 64 * 1024 * 1024;

/** The world as Hyperliquid shows it: the `/info` answers and the stats host's documents, as wire objects. */
export class HyperliquidMarket {
  private readonly meta: MarketMeta;
  private leaderboardCache: { bucket: number; body: Promise<Buffer> } | null = null;
  private readonly builderFileCache = new Map<string, Buffer>();
  private builderFileCacheBytes = 0;

  constructor(readonly world: SimWorld) {
    this.meta = new MarketMeta(world.catalog, world.prices, world.openInterest, world.spotHeld);
  }

  /** Dex index for a `dex` request field: absent or "" is the native dex; an unknown name fails like upstream (500 null). */
  dexIndex(dex: string | undefined): number {
    const index = this.world.catalog.dexNames.indexOf(dex ?? '');
    if (index < 0) throw new SimRequestError(500, 'null', 'application/json');
    return index;
  }

  instrument(coin: string): Instrument | undefined {
    return this.world.instrument(coin);
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
    const wallet = this.world.walletOf(user) ?? emptyWallet(-1);
    return clearinghouseStateBody(perpAccount(this.world.prices, wallet, dexIndex, t), t);
  }

  spotClearinghouseState(user: string, t: number): object {
    return spotClearinghouseStateBody(this.world.prices, this.world.walletOf(user), t);
  }

  /** Oldest first from startTime (at most FILL_HISTORY_MS back), at most 2000: page on by the last time returned. */
  userFillsByTime(user: string, startTime: number, endTime: number | undefined, t: number): object[] {
    const from = Math.max(startTime, t - FILL_HISTORY_MS);
    const to = Math.min(endTime ?? t, t);
    return walletFills(this.world.prices, this.world.walletOf(user), from, to).slice(0, MAX_FILLS_PER_RESPONSE).map(fillBody);
  }

  /** Newest first, at most 2000, like the recorded `userFills`. */
  userFills(user: string, t: number): object[] {
    const fills = walletFills(this.world.prices, this.world.walletOf(user), t - FILL_HISTORY_MS, t);
    return fills.reverse().slice(0, MAX_FILLS_PER_RESPONSE).map(fillBody);
  }

  recentTrades(coin: string, t: number): object[] {
    const instrument = this.instrument(coin);
    if (!instrument || instrument.perp?.isDelisted) return [];
    return recentTrades(this.world.prices, instrument, this.world.addresses, this.world.walletCount, t);
  }

  l2Book(coin: string, t: number): object | null {
    const instrument = this.instrument(coin);
    return instrument ? l2Book(this.world.prices, instrument, t) : null;
  }

  /**
   * A builder's `{YYYYMMDD}.csv.lz4` (builder lower-case, as the real paths require), or null where the stats
   * host has no file: an unknown builder, a day without its fills, or a day that has not ended at time t.
   */
  builderFills(builder: string, day: string, t: number): Buffer | null {
    const dayStart = fileDayStart(day);
    if (dayStart === null || dayStart + DAY_MS > t || !this.world.clientsOf(builder)) return null;
    const key = `${builder}/${day}`;
    const cached = this.builderFileCache.get(key);
    if (cached) return cached;
    const file = builderFillsFile({ world: this.world, builder, dayStart });
    if (!file) return null;
    this.builderFileCache.set(key, file);
    this.builderFileCacheBytes += file.length;
    // Maps iterate in insertion order, so the first entry is the oldest; the newest always stays.
    for (const [oldKey, oldFile] of this.builderFileCache) {
      if (this.builderFileCacheBytes <= BUILDER_FILE_CACHE_BYTES || oldKey === key) break;
      this.builderFileCache.delete(oldKey);
      this.builderFileCacheBytes -= oldFile.length;
    }
    return file;
  }

  /** The leaderboard document (vaults included), valued at the start of its refresh period and built once per period. */
  leaderboardJson(t: number): Promise<Buffer> {
    const bucket = Math.floor(t / LEADERBOARD_REFRESH_MS);
    if (this.leaderboardCache?.bucket !== bucket) {
      this.leaderboardCache = { bucket, body: buildLeaderboard(this.world, bucket * LEADERBOARD_REFRESH_MS) };
    }
    return this.leaderboardCache.body;
  }

  vaults(t: number): object[] {
    const at = Math.floor(t / LEADERBOARD_REFRESH_MS) * LEADERBOARD_REFRESH_MS;
    const { world } = this;
    const marks = world.prices.pricesAtStep(world.prices.step(at));
    return vaultsBody(
      world.vaultAddresses.map((address, k) => {
        const wallet = world.wallet(world.walletCount + k);
        return {
          name: VAULT_NAMES[k],
          address,
          leader: world.addresses[hash2(world.seed, 0x1ead + k) % world.walletCount],
          tvl: Math.max(0, totalAccountValue(world.prices, wallet, marks, at)),
          createTimeMillis: VAULT_EPOCH_MS + Math.floor(unit(hash2(world.seed, 0xc0de + k)) * 30 * 86_400_000),
          apr: Number((0.05 + 0.4 * unit(hash2(world.seed, 0xa9 + k))).toFixed(6)),
        };
      }),
    );
  }
}
