import { NEWS_LOCALES, TIME_HORIZONS } from '../../src/providers/analysis-provider';
import { ENGLISH_DESKS } from '../../src/simulator/news/news-feeds';
import { OutletItem } from '../../src/simulator/news/outlet-items';
import { ASSET_TYPES, ISO_MS } from './markets-stack';
import { FeedView } from './news-stack';

type Data = Record<string, any>;

/** NewsItem, contract 2.5. */
export const NEWS_ITEM_KEYS = [
  'id',
  'source',
  'title',
  'summary',
  'url',
  'imageUrl',
  'publisher',
  'publishedAt',
  'tags',
  'concepts',
  'sentiment',
  'contentClass',
  'assetLinked',
  'translationReady',
  'assets',
  'analysis',
];
export const ANALYSIS_KEYS = ['locale', 'title', 'coreSummary', 'direction', 'affectedAssets', 'impactLogic', 'timeHorizon', 'risksAndWatchlist'];
/** StockNewsItem, contract 2.4. */
export const STOCK_NEWS_ITEM_KEYS = [
  'id',
  'source',
  'title',
  'summary',
  'tags',
  'concepts',
  'url',
  'publishedAt',
  'publisher',
  'assets',
  'translationReady',
  'translationStatus',
  'assetLinked',
];
export const NEWS_ASSET_KEYS = ['id', 'name', 'symbol', 'type'];
/** The builtin analyser's rule: a score beyond this either way is a direction, within it neutral. */
export const BUILTIN_DIRECTION_THRESHOLD = 0.05;

/** One NewsItem with the contract's fields and types; `analysed` says whether analysis must be there or pending. */
export function expectNewsItem(item: Data, { analysed }: { analysed: boolean }): void {
  const where = { id: item.id };
  expect({ ...where, keys: Object.keys(item).sort() }).toEqual({ ...where, keys: [...NEWS_ITEM_KEYS].sort() });
  expect(Number.isInteger(item.id)).toBe(true);
  for (const key of ['source', 'title', 'summary', 'url', 'publisher'])
    expect({ ...where, key, type: typeof item[key] }).toEqual({ ...where, key, type: 'string' });
  expect(item.imageUrl === null || typeof item.imageUrl === 'string').toBe(true);
  expect(item.publishedAt).toMatch(ISO_MS);
  expect(item.contentClass).toBe('normal');
  expect(Array.isArray(item.tags) && item.tags.every((tag: unknown) => typeof tag === 'string' && tag !== '')).toBe(true);
  expect(Array.isArray(item.concepts)).toBe(true);
  expect(item.assetLinked).toBe(item.assets.length > 0);
  for (const asset of item.assets) {
    expect(Object.keys(asset).sort()).toEqual(NEWS_ASSET_KEYS);
    expect(Number.isInteger(asset.id)).toBe(true);
    expect(ASSET_TYPES).toContain(asset.type);
  }
  if (!analysed) {
    expect({ ...where, sentiment: item.sentiment, analysis: item.analysis, translationReady: item.translationReady }).toEqual({
      ...where,
      sentiment: null,
      analysis: null,
      translationReady: false,
    });
    return;
  }
  expect({ ...where, sentiment: typeof item.sentiment, analysis: item.analysis === null ? null : Object.keys(item.analysis).sort() }).toEqual({
    ...where,
    sentiment: 'number',
    analysis: [...ANALYSIS_KEYS].sort(),
  });
  expect(item.sentiment).toBeGreaterThanOrEqual(-1);
  expect(item.sentiment).toBeLessThanOrEqual(1);
  expect(NEWS_LOCALES).toContain(item.analysis.locale);
  expect(['bullish', 'bearish', 'neutral']).toContain(item.analysis.direction);
  for (const key of ANALYSIS_KEYS) expect({ ...where, key, type: typeof item.analysis[key] }).toEqual({ ...where, key, type: 'string' });
  if (item.analysis.locale === 'en') expect(TIME_HORIZONS).toContain(item.analysis.timeHorizon);
}

/** Newest first, ties by id (the later insert first): the feed's documented order. */
export function expectNewestFirst(items: readonly Data[]): void {
  items.slice(1).forEach((item, i) => {
    const before = items[i];
    const ok = before.publishedAt > item.publishedAt || (before.publishedAt === item.publishedAt && before.id > item.id);
    expect({ before: [before.id, before.publishedAt], after: [item.id, item.publishedAt], ok }).toEqual({
      before: [before.id, before.publishedAt],
      after: [item.id, item.publishedAt],
      ok: true,
    });
  });
}

/** Ids, checking that none repeats. */
export function uniqueIds(items: readonly Data[]): number[] {
  const ids = items.map((item) => item.id as number);
  expect(ids.length - new Set(ids).size).toBe(0);
  return ids;
}

/** The English desks' items of stories that name no asset at all (macro, guard, coin-less regulation). */
export function assetlessItems(view: FeedView): OutletItem[] {
  return ENGLISH_DESKS.flatMap((desk) => view.get(desk) ?? []).filter((item) => item.story.coin === null && item.story.listing === null);
}

/**
 * Stories of no asset that more than one English desk ran as its own article (not syndicated, which is one article
 * under one link): their headlines are the same text on each.
 */
export function sharedAssetlessStories(view: FeedView): Map<number, OutletItem[]> {
  const bySlot = new Map<number, OutletItem[]>();
  for (const item of assetlessItems(view).filter((candidate) => !candidate.story.syndicated)) {
    bySlot.set(item.story.slot, [...(bySlot.get(item.story.slot) ?? []), item]);
  }
  return new Map([...bySlot].filter(([, items]) => items.length > 1));
}

/** A syndicated story both CoinDesk's and The Block's feeds show: one article under two sources. */
export function syndicatedPairs(view: FeedView): Array<{ original: OutletItem; copy: OutletItem }> {
  const originals = new Map((view.get('sim-coindesk') ?? []).map((item) => [item.story.slot, item]));
  return (view.get('sim-theblock') ?? [])
    .filter((copy) => copy.story.syndicated && originals.has(copy.story.slot))
    .map((copy) => ({ original: originals.get(copy.story.slot) as OutletItem, copy }));
}
