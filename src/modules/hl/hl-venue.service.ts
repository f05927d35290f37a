import { Injectable } from '@nestjs/common';
import { CachedValue } from '../../common/cache/cached-value';
import { Decimal, toDecimalString } from '../../common/decimal/decimal';
import { HlMarketsRepository, VenueMarketRow } from './hl-markets.repository';

/** The markets table changes with each hl.markets run (about every 30 s); a few seconds old is fresh. */
const VENUE_TTL_MS = 5_000;
const VENUE_MAX_STALE_MS = 60 * 60_000;
export const HYPERLIQUID_VENUE = 'Hyperliquid';
/** Perps and spot pairs on Hyperliquid settle in USDC. */
const QUOTE_ASSET = 'USDC';
/** Spot tokens bridged under another name (Unit's UBTC is bitcoin on Hyperliquid spot). */
const SPOT_ALIASES: ReadonlyMap<string, string> = new Map([
  ['BTC', 'UBTC'],
  ['ETH', 'UETH'],
  ['SOL', 'USOL'],
]);

/** Which of Hyperliquid's markets trade an asset: the native dex's coins, or HIP-3 dexes' stock and commodity perps. */
export type VenueAssetKind = 'crypto' | 'listed';

export interface HlVenueTicker {
  pair: string;
  marketType: 'spot' | 'perp';
  price: string;
  volume24h: string | null;
  updatedAt: Date;
}

export interface HlVenueTotals {
  /** Perps of every dex, USD. */
  openInterestUsd: string;
  /** Perps and spot, USD notional. */
  volume24hUsd: string;
  perpMarkets: number;
  spotMarkets: number;
  updatedAt: Date | null;
}

/**
 * Hyperliquid as a trading venue for the Markets area: the markets of an asset with their prices and
 * volumes, and the exchange's totals, from the markets table the hl.markets job keeps (no upstream call).
 */
@Injectable()
export class HlVenueService {
  private readonly markets = new CachedValue(() => this.repository.listVenueMarkets(), { ttlMs: VENUE_TTL_MS, maxStaleMs: VENUE_MAX_STALE_MS });

  constructor(private readonly repository: HlMarketsRepository) {}

  /**
   * A crypto asset's native perp and its spot pair (by symbol, or the bridged token's name); a listed asset's
   * HIP-3 perps (`xyz:TSLA` on every dex that lists TSLA). Pairs are named as Hyperliquid names the coin.
   */
  async tickersOf(symbol: string, kind: VenueAssetKind): Promise<HlVenueTicker[]> {
    const wanted = symbol.toUpperCase();
    const spotName = SPOT_ALIASES.get(wanted);
    return (await this.markets.get())
      .filter((m) => m.price !== null && matches(m, wanted, spotName, kind))
      .map((m) => ({ pair: `${m.coin}/${QUOTE_ASSET}`, marketType: m.market, price: m.price!, volume24h: m.dayVolumeUsd, updatedAt: m.updatedAt }));
  }

  async totals(): Promise<HlVenueTotals> {
    const markets = (await this.markets.get()).filter((m) => !isQuoteAsset(m));
    const perps = markets.filter((m) => m.market === 'perp');
    const sum = (values: Array<string | null>) => toDecimalString(values.reduce((total, v) => (v === null ? total : total.plus(v)), new Decimal(0)));
    const latest = markets.reduce<Date | null>((max, m) => (max === null || m.updatedAt > max ? m.updatedAt : max), null);
    return {
      openInterestUsd: sum(perps.map((m) => m.openInterestUsd)),
      volume24hUsd: sum(markets.map((m) => m.dayVolumeUsd)),
      perpMarkets: perps.length,
      spotMarkets: markets.length - perps.length,
      updatedAt: latest,
    };
  }
}

/** The markets table prices USDC itself (at 1) for valuations; it is no market of USDC against itself. */
function isQuoteAsset(m: VenueMarketRow): boolean {
  return m.market === 'spot' && m.coin.toUpperCase() === QUOTE_ASSET;
}

function matches(m: VenueMarketRow, wanted: string, spotName: string | undefined, kind: VenueAssetKind): boolean {
  const coin = m.coin.toUpperCase();
  if (kind === 'listed') return m.market === 'perp' && m.dex !== '' && coin.slice(coin.indexOf(':') + 1) === wanted;
  if (m.dex !== '' || isQuoteAsset(m)) return false;
  return coin === wanted || (m.market === 'spot' && coin === spotName);
}
