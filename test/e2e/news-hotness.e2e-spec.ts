import { canonicalUrl } from '../../src/providers/feeds/canonical-url';
import { makeAccount } from '../support/factories';
import { sharedAssetlessStories } from '../support/news-contract';
import { FeedView, newsClient, NewsStack, runNewsJob, startNewsStack } from '../support/news-stack';

type Data = Record<string, any>;

const HOUR_MS = 3_600_000;
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

/**
 * A headline of no asset that two desks ran as one story, and one that CoinDesk ran more than once (the world
 * repeats some headlines) while another desk ran it too: under the hotness rule (titles of different sources within
 * 48 hours that read alike) each of CoinDesk's copies is covered by both sources.
 */
const wish = (view: FeedView) => {
  const titles = (desk: 'sim-coindesk' | 'sim-cointelegraph' | 'sim-theblock') =>
    (view.get(desk) ?? []).filter((item) => item.story.coin === null && item.story.listing === null && !item.story.syndicated).map((item) => item.title);
  const coindesk = titles('sim-coindesk');
  const others = new Set([...titles('sim-cointelegraph'), ...titles('sim-theblock')]);
  return sharedAssetlessStories(view).size > 0 && coindesk.some((title, k) => coindesk.indexOf(title) !== k && others.has(title));
};

/**
 * Feeds answer at their own pace: CoinDesk at once, Cointelegraph 1.5 s and The Block 3 s later, so their items are
 * stored (and grouped into stories) one outlet after the other, as when outlets differ in latency.
 */
const SLOW_PATHS = { 'cointelegraph.rss': 1_500, 'theblock.rss': 3_000 };

describe('GET /news?category=hot-24h|hot-7d (story coverage and hotness)', () => {
  let stack: NewsStack;
  let client: ReturnType<typeof newsClient>;
  let all: Data[];

  beforeAll(async () => {
    stack = await startNewsStack({ wish, slowPaths: SLOW_PATHS });
    client = newsClient(stack.t, (await makeAccount(stack.t, { tier: 'pro' })).key);
    await runNewsJob(stack.t, 'news.ingest');
    all = await client.walk('/news', 100, 1);
  });
  afterAll(() => stack?.close());

  const ids = async (sql: string, params: unknown[] = []): Promise<number[]> =>
    sorted((await stack.t.db.query(sql, params)).map((row: Data) => Number(row.id)));

  describe('hotness', () => {
    const storyRows = async (): Promise<Map<number, Data>> => {
      const rows: Data[] = await stack.t.db.query(`SELECT id, source, title, published_at, coverage, hot_score FROM news_items`);
      return new Map(rows.map((row) => [Number(row.id), row]));
    };

    it('lists the last 24 hours hottest first, ties newest first', async () => {
      const hot = await client.walk('/news?category=hot-24h', 100, 1);
      const cutoff = new Date(Date.now() - 24 * HOUR_MS);
      expect(sorted(hot.map((i) => i.id))).toEqual(await ids(`SELECT id FROM news_items WHERE published_at >= $1`, [cutoff]));
      const rows = await storyRows();
      const scores = hot.map((item) => rows.get(item.id)!.hot_score as number);
      hot.slice(1).forEach((item, k) => {
        const [before, score] = [scores[k], scores[k + 1]];
        const ok = score < before || (score === before && item.publishedAt <= hot[k].publishedAt);
        expect({ at: k + 1, before, score, ok }).toEqual({ at: k + 1, before, score, ok: true });
      });
      // Coverage is the story's distinct sources; the largest linked asset adds at most 1 (market cap, log scale).
      for (const row of rows.values())
        expect({ id: row.id, bonus: row.hot_score - row.coverage >= 0 && row.hot_score - row.coverage <= 1 }).toEqual({ id: row.id, bonus: true });
    });

    it('counts every source that ran the same headline within 48 hours in the coverage of each of its items', async () => {
      const rows = [...(await storyRows()).values()];
      const byTitle = new Map<string, Data[]>();
      for (const row of rows) byTitle.set(row.title, [...(byTitle.get(row.title) ?? []), row]);
      const undercounted = rows.flatMap((row) => {
        const near = byTitle.get(row.title)!.filter((other) => Math.abs(other.published_at.getTime() - row.published_at.getTime()) <= 48 * HOUR_MS);
        const sources = new Set(near.map((other) => other.source)).size;
        return row.coverage >= sources ? [] : [{ id: row.id, source: row.source, title: row.title, coverage: row.coverage, sources }];
      });
      expect(undercounted).toEqual([]);
    });

    it('puts a story several desks ran before any single-source item of no asset', async () => {
      const hot = await client.walk('/news?category=hot-24h', 100, 1);
      const rows = await storyRows();
      const position = new Map(hot.map((item, k) => [item.id, k]));
      const idOfUrl = new Map(all.map((item) => [item.url, item.id as number]));
      const loners = hot.filter((item) => item.assets.length === 0 && rows.get(item.id)!.coverage === 1).map((item) => position.get(item.id)!);
      expect(loners.length).toBeGreaterThan(0);
      const shared = [...sharedAssetlessStories(stack.view()).values()];
      expect(shared.length).toBeGreaterThan(0);
      for (const copies of shared) {
        for (const copy of copies) {
          const id = idOfUrl.get(canonicalUrl(copy.link) as string)!;
          const where = { title: copy.title, source: rows.get(id)!.source };
          expect({ ...where, coverage: rows.get(id)!.coverage >= copies.length }).toEqual({ ...where, coverage: true });
          expect({ ...where, beforeLoners: position.get(id)! < Math.min(...loners) }).toEqual({ ...where, beforeLoners: true });
        }
      }
    });
  });

  // Last: it moves one item back in time.
  describe('time windows', () => {
    it('leaves an item older than a day out of hot-24h and keeps it in hot-7d and the plain feed', async () => {
      const moved = all[all.length - 1];
      const at = new Date(Date.now() - 30 * HOUR_MS);
      await stack.t.db.query(`UPDATE news_items SET published_at = $2 WHERE id = $1`, [moved.id, at]);
      await stack.t.db.query(`UPDATE news_item_assets SET published_at = $2 WHERE news_id = $1`, [moved.id, at]);
      const hot24 = (await client.walk('/news?category=hot-24h', 100, 1)).map((i) => i.id);
      const hot7d = (await client.walk('/news?category=hot-7d', 100, 1)).map((i) => i.id);
      expect({ in24h: hot24.includes(moved.id), in7d: hot7d.includes(moved.id) }).toEqual({ in24h: false, in7d: true });
      expect(hot24.length).toBe(all.length - 1);
      const plain = await client.walk('/news', 100, 1);
      expect(plain[plain.length - 1]).toMatchObject({ id: moved.id, publishedAt: at.toISOString() });
    });
  });
});
