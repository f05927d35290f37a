import { Listing } from './market-book';
import { stringHash } from './prng';

/** CIKs are drawn from this range: 7 digits, like those of companies registered in the 2000s. */
const CIK_BASE = 1_000_000;
const CIK_SPAN = 900_000;
/** "Alphabet Inc. Class C" is the registrant of "Alphabet Inc.": share classes file as one company. */
const SHARE_CLASS = /\s+Class\s+[A-Z]$/i;
/** SEC's exchange names in a submissions header, by the listing's exchange code. */
const SEC_EXCHANGES: Record<string, string> = { NMS: 'Nasdaq', NGM: 'Nasdaq', NYQ: 'NYSE', PCX: 'NYSE' };

/** A company filing with SEC: every US common stock of the world, share classes under one CIK. */
export interface SecRegistrant {
  cik: number;
  /** The company's name as its first listing has it, share class dropped. */
  name: string;
  /** Largest listing first: GOOGL then GOOG. */
  tickers: string[];
  exchanges: string[];
  sector: string | null;
  industry: string | null;
  /** At each listing's base price: orders company_tickers.json roughly by size, as SEC does. */
  marketCap: number;
  /** Seeds the registrant's filing history. */
  seed: number;
}

/** A US stock: an equity without an exchange suffix (0700.HK, 7203.T and 005930.KS are not SEC registrants). */
export function isUsStock(listing: Listing): boolean {
  return listing.type === 'EQUITY' && !listing.symbol.includes('.') && listing.exchangeDef.market === 'us_market';
}

/**
 * The SEC registrants of a world's listings, largest first, each with a deterministic CIK: a hash of the
 * company's name, moved to the next free number on a collision, so the same listings always get the same CIKs.
 */
export function buildSecRegistrants(worldSeed: number, listings: readonly Listing[]): SecRegistrant[] {
  const byName = new Map<string, Listing[]>();
  for (const listing of listings.filter(isUsStock)) {
    const name = listing.longName.replace(SHARE_CLASS, '');
    byName.set(name, [...(byName.get(name) ?? []), listing]);
  }
  const taken = new Set<number>();
  const registrants = [...byName.keys()].sort().map((name): SecRegistrant => {
    const shares = (byName.get(name) ?? []).map((listing) => ({ listing, cap: listing.process.basePx * listing.scale * (listing.shares ?? 0) }));
    shares.sort((a, b) => b.cap - a.cap);
    let cik = CIK_BASE + (stringHash(`sec:cik:${name}`) % CIK_SPAN);
    while (taken.has(cik)) cik += 1;
    taken.add(cik);
    const first = shares[0].listing;
    return {
      cik,
      name,
      tickers: shares.map(({ listing }) => listing.symbol),
      exchanges: shares.map(({ listing }) => SEC_EXCHANGES[listing.exchange] ?? 'OTC'),
      sector: first.sector,
      industry: first.industry,
      marketCap: shares.reduce((sum, { cap }) => sum + cap, 0),
      seed: stringHash(`${worldSeed}:sec:${cik}`),
    };
  });
  return registrants.sort((a, b) => b.marketCap - a.marketCap || a.cik - b.cik);
}

/** CIK##########: SEC's 10-digit zero-padded form of a CIK, as its file names use it. */
export function paddedCik(cik: number): string {
  return String(cik).padStart(10, '0');
}
