import { IncomingMessage, ServerResponse } from 'node:http';
import { queryOf } from '../json-reply';
import { ProtocolContext, StartedProtocol } from '../simulator-protocol';
import { Listing } from '../world/market-book';
import { stringHash } from '../world/prng';
import { FeedEntry, renderAtom, renderRss } from './feed-xml';
import { BROKEN_FEED_PATH, HEADLINE_PATH, OUTLET_FEEDS, OutletFeed } from './news-feeds';
import { outletItems } from './outlet-items';
import { headlineChannel, StockHeadlines } from './stock-headlines';
import { StoryStream } from './story-stream';

const RSS_TYPE = 'application/rss+xml; charset=utf-8';
const ATOM_TYPE = 'application/atom+xml; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';
/** Rendered documents kept, keyed by feed and newest item: a feed only changes when an item is added. */
const DOCUMENTS_CACHED = 256;
const HEADLINE_FEED = 'headline';
const BROKEN_FEED = 'broken';
const NOT_FOUND = 'not-found';

/** What a bot-protected outlet answers a feed reader: a 200 challenge page, not a feed. */
const CHALLENGE_PAGE = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="refresh" content="390"></head>
<body><div class="main-wrapper"><h1>www.broken-news.example</h1><h2>Checking if the site connection is secure</h2>
<p>www.broken-news.example needs to review the security of your connection before proceeding.</p></div></body></html>`;
const NOT_FOUND_PAGE = `<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1>
<p>The requested URL was not found on this server.</p></body></html>`;

export interface NewsCounters {
  /** Requests per outlet feed name, plus 'headline' (the per-stock feed), 'broken' and 'not-found'. */
  requestsByFeed: Record<string, number>;
  /** The 304 answers among them. */
  notModifiedByFeed: Record<string, number>;
  /** Per-stock feed requests by symbol asked for (upper-cased). */
  headlineBySymbol: Record<string, number>;
}

export interface NewsSimulation extends StartedProtocol {
  counters: NewsCounters;
  resetCounters(): void;
  /** The stories behind the feeds, for tests that check them against the world. */
  stories: StoryStream;
  headlines: StockHeadlines;
}

interface Document {
  body: string;
  contentType: string;
  etag: string;
  /** Newest item's time, 0 for an empty feed. */
  newest: number;
}

function emptyCounters(): NewsCounters {
  return { requestsByFeed: {}, notModifiedByFeed: {}, headlineBySymbol: {} };
}

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** True when the client's copy is current: a matching If-None-Match, else an If-Modified-Since not older than the newest item. */
function isNotModified(req: IncomingMessage, document: Document): boolean {
  const tags = req.headers['if-none-match'];
  if (tags !== undefined) return tags.split(',').some((tag) => ['*', document.etag].includes(tag.trim().replace(/^W\//, '')));
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  return document.newest > 0 && !Number.isNaN(since) && since >= document.newest;
}

function reply(req: IncomingMessage, res: ServerResponse, status: number, body: string, headers: Record<string, string>): void {
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * Outlet feeds (RSS 2.0 and Atom) about the world under `/feeds`, Yahoo's per-ticker headline feed, and a feed URL
 * that answers an HTML page. Every feed answers with an ETag and Last-Modified taken from its newest item and a
 * bodiless 304 to a client whose copy is current.
 */
export function startNews({ world, clock }: ProtocolContext): NewsSimulation {
  const stories = new StoryStream(world.seed, world.markets);
  const headlines = new StockHeadlines(stories, world.markets);
  const byPath = new Map(OUTLET_FEEDS.map((feed) => [feed.path, feed]));
  const documents = new Map<string, Document>();
  const counters = emptyCounters();

  const documentOf = (key: string, entries: readonly FeedEntry[], render: () => string, contentType: string): Document => {
    const newest = entries.length > 0 ? entries[0].publishedAt : 0;
    // Every item's guid, not only the newest's: a headline feed drops an old item without gaining a new one.
    const cacheKey = `${key}:${newest}:${stringHash(entries.map((entry) => entry.guid).join('\n')).toString(36)}`;
    let document = documents.get(cacheKey);
    if (!document) {
      document = { body: render(), contentType, etag: `"${stringHash(cacheKey).toString(36)}-${(newest / 1000).toString(36)}"`, newest };
      if (documents.size >= DOCUMENTS_CACHED) documents.delete(documents.keys().next().value as string);
      documents.set(cacheKey, document);
    }
    return document;
  };

  const outletDocument = (feed: OutletFeed, now: number): Document => {
    const items = outletItems(stories, feed, now);
    const render = () => (feed.format === 'atom' ? renderAtom(feed.channel, items) : renderRss(feed.channel, items));
    return documentOf(feed.name, items, render, feed.format === 'atom' ? ATOM_TYPE : RSS_TYPE);
  };

  const headlineDocument = (symbols: string[], now: number): Document => {
    const listings = symbols.map((symbol) => world.markets.listing(symbol)).filter((listing): listing is Listing => listing !== undefined);
    const items = listings.flatMap((listing) => headlines.items(listing, now)).sort((a, b) => b.publishedAt - a.publishedAt);
    return documentOf(`${HEADLINE_FEED}:${symbols.join(',')}`, items, () => renderRss(headlineChannel(symbols), items), RSS_TYPE);
  };

  const serve = (req: IncomingMessage, res: ServerResponse, name: string, document: Document): void => {
    const headers: Record<string, string> = { 'content-type': document.contentType, etag: document.etag };
    if (document.newest > 0) headers['last-modified'] = new Date(document.newest).toUTCString();
    if (isNotModified(req, document)) {
      bump(counters.notModifiedByFeed, name);
      res.writeHead(304, { etag: document.etag, ...(headers['last-modified'] ? { 'last-modified': headers['last-modified'] } : {}) });
      return void res.end();
    }
    reply(req, res, 200, document.body, headers);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(req, res, 405, 'Method Not Allowed', { 'content-type': 'text/plain', allow: 'GET, HEAD' });
    const now = clock();
    const feed = byPath.get(path);
    if (feed) {
      bump(counters.requestsByFeed, feed.name);
      return serve(req, res, feed.name, outletDocument(feed, now));
    }
    if (path === HEADLINE_PATH) {
      const symbols = [...new Set((queryOf(req.url).get('s') ?? '').split(',').map((symbol) => symbol.trim().toUpperCase()))].filter(Boolean);
      bump(counters.requestsByFeed, HEADLINE_FEED);
      for (const symbol of symbols) bump(counters.headlineBySymbol, symbol);
      return serve(req, res, HEADLINE_FEED, headlineDocument(symbols, now));
    }
    if (path === BROKEN_FEED_PATH) {
      bump(counters.requestsByFeed, BROKEN_FEED);
      return reply(req, res, 200, CHALLENGE_PAGE, { 'content-type': HTML_TYPE });
    }
    bump(counters.requestsByFeed, NOT_FOUND);
    reply(req, res, 404, NOT_FOUND_PAGE, { 'content-type': HTML_TYPE });
  };

  return { counters, resetCounters: () => Object.assign(counters, emptyCounters()), stories, headlines, handle };
}
