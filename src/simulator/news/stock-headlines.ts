import { Listing, MarketBook } from '../world/market-book';
import { hash3, unit } from '../world/prng';
import { FeedChannel, FeedEntry } from './feed-xml';
import { outletFeed, slugOf, withQuery } from './news-feeds';
import { lastQuarter, money, percent, utcClock } from './news-format';
import { OutletItem, outletItems } from './outlet-items';
import { PriceMove, StoryStream, toneOf } from './story-stream';

/** A stock's own headlines come on a half-hour grid, one slot in two carrying one. */
export const HEADLINE_SLOT_MS = 30 * 60_000;
const HEADLINE_ODDS = 0.5;
/** Within its slot a headline lands in the first 20 minutes (whole seconds). */
const HEADLINE_SPREAD_S = 1_200;
const MAX_LOOKBACK_SLOTS = 96;
const REPUBLISH_QUERY = 'utm_source=yahoo_finance&utm_medium=rss';
const ANALYST_FIRMS = ['Harbor Street Research', 'Northgate Securities', 'Keel & Finch Capital', 'Mizu Partners', 'Bluewater Equity Research'];
/** The kinds an equity's headline slots take in turn, so one kind does not fill its feed. */
const EQUITY_CYCLE: readonly HeadlineKind[] = ['move', 'analyst', 'move', 'preview', 'move', 'move', 'analyst', 'move'];
const LEGAL_SUFFIX = /,?\s+(Inc\.|Incorporated|Corporation|Corp\.|Co\., Ltd\.|Limited|plc|Ltd\.)$/;

export type HeadlineKind = 'move' | 'analyst' | 'preview' | 'release';

export interface HeadlineItem extends FeedEntry {
  symbol: string;
  kind: HeadlineKind;
  /** The 24 h move a price headline reports. */
  move: PriceMove | null;
}

/** Yahoo's channel for one or more symbols; unknown symbols give this channel with no items, as Yahoo does. */
export function headlineChannel(symbols: readonly string[]): FeedChannel {
  const list = symbols.join(',');
  return {
    title: `Yahoo! Finance: ${list} News`,
    link: `https://finance.yahoo.example/quote/${encodeURIComponent(list)}`,
    description: `Latest Financial News for ${list}`,
    language: 'en-US',
    ttlMinutes: null,
    offsetMinutes: 'GMT',
    bodyForm: 'text',
    imageVia: null,
    copyright: 'Copyright (c) 2025 Yahoo! Inc. All rights reserved.',
  };
}

/** `Apple`, `Tesla`, `Toyota Motor`: a company as headlines name it. */
export function companyName(listing: Listing): string {
  return listing.type === 'EQUITY' ? listing.longName.replace(LEGAL_SUFFIX, '') : listing.shortName;
}

/** Text of the wire's HTML body, for a feed that carries plain text. */
function plainText(html: string): string {
  return html
    .replace(/<\/p><p>/g, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&#039;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * Yahoo's headline feed for one listing: 3 to 8 items (a number fixed per listing): its own price moves over the
 * day from the world's prices, analyst calls and earnings previews for equities, and the wire's releases about the
 * company republished with the wire's link (so the canonical URL is shared across the two sources).
 */
export class StockHeadlines {
  private wire?: { second: number; items: OutletItem[] };

  constructor(
    private readonly stream: StoryStream,
    private readonly book: MarketBook,
  ) {}

  items(listing: Listing, now: number): HeadlineItem[] {
    const count = 3 + (listing.seed % 6);
    const releases = this.wireItems(now)
      .filter((item) => item.story.listing?.symbol === listing.symbol)
      .map((item): HeadlineItem => ({
        ...item,
        guid: `yahoo-finance-${item.guid}`,
        guidIsPermaLink: false,
        link: withQuery(item.link, REPUBLISH_QUERY),
        body: plainText(item.body),
        author: 'SimWire',
        categories: [],
        image: null,
        symbol: listing.symbol,
        kind: 'release',
        move: null,
      }));
    const own: HeadlineItem[] = [];
    const current = Math.floor(now / HEADLINE_SLOT_MS);
    for (let slot = current; slot > current - MAX_LOOKBACK_SLOTS && own.length < count; slot--) {
      if (unit(hash3(listing.seed, slot, 0x4e)) >= HEADLINE_ODDS) continue;
      const at = slot * HEADLINE_SLOT_MS + 1000 * Math.floor(unit(hash3(listing.seed, slot, 0x4f)) * HEADLINE_SPREAD_S);
      if (at <= now) own.push(this.headline(listing, slot, at));
    }
    return [...releases, ...own].sort((a, b) => b.publishedAt - a.publishedAt).slice(0, count);
  }

  /** The wire's items at `now`, kept for the second it is in: items carry whole seconds, and stock feeds come in bursts. */
  private wireItems(now: number): OutletItem[] {
    const second = Math.floor(now / 1000);
    if (this.wire?.second !== second) this.wire = { second, items: outletItems(this.stream, outletFeed('sim-wire'), now) };
    return this.wire.items;
  }

  private headline(listing: Listing, slot: number, at: number): HeadlineItem {
    const kind: HeadlineKind = listing.type === 'EQUITY' ? EQUITY_CYCLE[(slot + listing.seed) % EQUITY_CYCLE.length] : 'move';
    const variant = hash3(listing.seed, slot, 0x50);
    const name = companyName(listing);
    const price = this.book.listingPx(listing, at);
    const px = money(price, listing.currency);
    const move = kind === 'move' ? this.stream.listingMove(listing, at, 24) : null;
    let title: string;
    let body: string;
    if (move) {
      const tone = toneOf(move.change);
      const pct = `${percent(move.change)}%`;
      const titles =
        tone === 'neutral'
          ? [`${name} (${listing.symbol}) little changed at ${px}`, `${name} (${listing.symbol}) holds near ${px} as trading stays quiet`]
          : tone === 'bullish'
            ? [`${name} (${listing.symbol}) rises ${pct} to ${px}`, `Why ${name} (${listing.symbol}) is climbing today`, `${name} gains ${pct} in the past day`]
            : [`${name} (${listing.symbol}) falls ${pct} to ${px}`, `Why ${name} (${listing.symbol}) is sliding today`, `${name} loses ${pct} in the past day`];
      title = titles[variant % titles.length];
      const change = tone === 'neutral' ? 'about level with' : `${move.change > 0 ? 'up' : 'down'} ${pct} from`;
      body = `${name} traded at ${px} at ${utcClock(at)}, ${change} ${money(move.fromPx, listing.currency)} a day earlier.`;
    } else if (kind === 'analyst') {
      const firm = ANALYST_FIRMS[variant % ANALYST_FIRMS.length];
      const upside = 0.08 + 0.2 * unit(hash3(listing.seed, slot, 0x52));
      const upgrade = unit(hash3(listing.seed, slot, 0x53)) < 0.6;
      const target = money(price * (upgrade ? 1 + upside : 1 - upside), listing.currency);
      title = upgrade
        ? `${firm} upgrades ${name} (${listing.symbol}) to Buy, sees ${percent(upside)}% upside`
        : `${firm} downgrades ${name} (${listing.symbol}) to Sell on valuation concerns`;
      body = `The firm set a ${target} price target, against ${px} for the shares at the time of the call.`;
    } else {
      const quarter = lastQuarter(at + 30 * 86_400_000).toLowerCase();
      const titles = [
        `${name} (${listing.symbol}) earnings preview: what to expect from the ${quarter} report`,
        `What Wall Street expects from ${name}'s ${quarter} results`,
      ];
      title = titles[variant % titles.length];
      body = `Analysts expect ${name} to update investors on demand and margins; the shares last traded at ${px}.`;
    }
    const guid = `yahoo-finance-${listing.symbol.toLowerCase()}-${slot}`;
    const link = `https://finance.yahoo.example/news/${slugOf(title)}-${slot}.html`;
    return {
      guid,
      guidIsPermaLink: false,
      title,
      link,
      body,
      publishedAt: at,
      author: 'Yahoo Finance',
      categories: [],
      image: null,
      symbol: listing.symbol,
      kind,
      move,
    };
  }
}
