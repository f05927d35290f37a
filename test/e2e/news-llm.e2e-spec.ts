import { JobRunResult } from '../../src/jobs/job.types';
import { NEWS_LOCALES, TRANSLATED_LOCALES } from '../../src/providers/analysis-provider';
import { makeAccount } from '../support/factories';
import { expectNewsItem } from '../support/news-contract';
import { LlmStub, startLlmStub, stubAnalysisOf, stubTranslationOf } from '../support/news-llm-stub';
import { newsClient, NewsStack, runNewsJob, startNewsStack } from '../support/news-stack';

type Data = Record<string, any>;

const MODEL = 'stub-model';
/** The one stock whose headline feed is read; the others fail at once, so the suite analyses a hundred items, not a thousand. */
const STOCK = 'AAPL';
const MINUTE_MS = 60_000;

const englishOf = (analysis: Data) => {
  const { locale, direction, ...fields } = analysis;
  void locale;
  void direction;
  return fields as Record<string, string>;
};

describe('news analysis through an OpenAI-compatible server (NEWS_ANALYSIS_VENDOR=openai)', () => {
  let stub: LlmStub;
  let stack: NewsStack;
  let client: ReturnType<typeof newsClient>;
  let itemCount: number;
  let refusedAt: number;
  let refused: { run: JobRunResult; calls: number; items: Data[]; stock: Data; rows: Data[] };
  let english: Data[];

  beforeAll(async () => {
    stub = await startLlmStub();
    stack = await startNewsStack({
      env: () => ({
        NEWS_ANALYSIS_VENDOR: 'openai',
        NEWS_LLM_BASE_URL: stub.baseUrl,
        NEWS_LLM_MODEL: MODEL,
        NEWS_LLM_TIMEOUT_MS: '10000',
        NEWS_ANALYSIS_CONCURRENCY: '16',
        MARKET_UPSTREAM_MAX_RETRIES: '0',
      }),
    });
    client = newsClient(stack.t, (await makeAccount(stack.t, { tier: 'pro' })).key);
    stack.upstream.fail(new RegExp(`/feeds/headline\\?s=(?!${STOCK}$)`));
    // The other stocks' feeds fail (and are counted as failures of the run, which still ends ok).
    expect((await runNewsJob(stack.t, 'news.ingest')).outcome?.failures).toBeGreaterThan(0);
    [{ n: itemCount }] = await stack.t.db.query(`SELECT count(*)::int AS n FROM news_items`);

    stub.mode = 'refuse';
    refusedAt = Date.now();
    const run = await runNewsJob(stack.t, 'news.analyse');
    refused = {
      run,
      calls: stub.calls.analyse,
      items: await client.walk('/news', 100, 1),
      stock: (await client.ok(`/stock/${STOCK}/news?limit=100`, 1)).body.data,
      rows: await stack.t.db.query(`SELECT analysis_state, analysis_attempts, analysis_due_at, sentiment FROM news_items`),
    };

    // The retry is due a minute later; here it is due at once.
    await stack.t.db.query(`UPDATE news_items SET analysis_due_at = now()`);
    stub.mode = 'answer';
    await runNewsJob(stack.t, 'news.analyse');
    english = await client.walk('/news', 100, 1);
    await runNewsJob(stack.t, 'news.analyse');
  });
  afterAll(async () => {
    await stack?.close();
    await stub?.close();
  });

  describe('a refused answer', () => {
    it('stores nothing: every item stays pending, served with sentiment and analysis null', async () => {
      expect(itemCount).toBeGreaterThan(20);
      expect(refused.calls).toBe(itemCount);
      expect(refused.run.outcome).toMatchObject({ rows: 0, failures: itemCount });
      expect(refused.items.length).toBe(itemCount);
      for (const item of refused.items) expectNewsItem(item, { analysed: false });
      expect(refused.stock.items.length).toBeGreaterThan(0);
      for (const item of refused.stock.items) expect([item.id, item.translationStatus, item.translationReady]).toEqual([item.id, 'pending', false]);
    });

    it('counts the attempt and puts the item off for about a minute', () => {
      for (const row of refused.rows) {
        expect({ state: row.analysis_state, attempts: row.analysis_attempts, sentiment: row.sentiment }).toEqual({
          state: 'pending',
          attempts: 1,
          sentiment: null,
        });
        expect(row.analysis_due_at.getTime()).toBeGreaterThanOrEqual(refusedAt + MINUTE_MS - 1000);
        expect(row.analysis_due_at.getTime()).toBeLessThanOrEqual(Date.now() + 2 * MINUTE_MS);
      }
    });
  });

  describe('answers', () => {
    it("stores the model's English analysis first, with its sentiment, before any translation", async () => {
      expect(english.length).toBe(itemCount);
      for (const item of english) {
        expectNewsItem(item, { analysed: true });
        const expected = stubAnalysisOf({ title: item.title, summary: item.summary, linkedAssets: item.assets });
        const { sentiment, ...analysis } = expected;
        expect({ id: item.id, sentiment: item.sentiment, analysis: item.analysis }).toEqual({
          id: item.id,
          sentiment,
          analysis: { locale: 'en', ...analysis },
        });
      }
    });

    it('then writes one translation per locale: all eight stored, with the provider and model that wrote them', async () => {
      for (const locale of TRANSLATED_LOCALES) expect({ locale, calls: stub.calls.translate[locale] }).toEqual({ locale, calls: itemCount });
      expect(stub.calls.other).toBe(0);
      const perItem: Data[] = await stack.t.db.query(
        `SELECT i.id, i.analysis_state, i.locales, count(a.locale)::int AS analyses, array_agg(DISTINCT a.provider) AS providers, array_agg(DISTINCT a.model) AS models
           FROM news_items i LEFT JOIN news_analyses a ON a.news_id = i.id GROUP BY i.id`,
      );
      expect(perItem.length).toBe(itemCount);
      for (const row of perItem) {
        expect({ id: row.id, state: row.analysis_state, locales: [...row.locales].sort(), analyses: row.analyses, providers: row.providers }).toEqual({
          id: row.id,
          state: 'ready',
          locales: [...NEWS_LOCALES].sort(),
          analyses: NEWS_LOCALES.length,
          providers: ['openai'],
        });
        expect(row.models).toEqual([expect.stringMatching(new RegExp(`^${MODEL}\\b`))]);
      }
    });

    it("serves the requested locale's analysis with translationReady true, direction still the English word", async () => {
      const en = new Map(english.map((item) => [item.id, item]));
      const fr = (await client.ok('/news?locale=fr&limit=30', 1)).body.data.items as Data[];
      expect(fr.length).toBe(Math.min(30, itemCount));
      for (const item of fr) {
        const source = en.get(item.id)!;
        expect({ id: item.id, ready: item.translationReady, sentiment: item.sentiment }).toEqual({ id: item.id, ready: true, sentiment: source.sentiment });
        expect(item.analysis).toEqual({ locale: 'fr', direction: source.analysis.direction, ...stubTranslationOf(englishOf(source.analysis), 'fr') });
      }
      const one = english[0];
      for (const locale of TRANSLATED_LOCALES) {
        const detail = (await client.ok(`/news/${one.id}?locale=${locale}`, 1)).body.data;
        expect({ locale, ready: detail.translationReady, analysis: detail.analysis }).toEqual({
          locale,
          ready: true,
          analysis: { locale, direction: one.analysis.direction, ...stubTranslationOf(englishOf(one.analysis), locale) },
        });
      }
      expect((await client.ok(`/news/${one.id}`, 1)).body.data).toEqual(one);
    });

    it('marks stock news translationStatus ready once all eight locales are stored', async () => {
      const body = (await client.ok(`/stock/${STOCK}/news?limit=100`, 1)).body.data;
      expect(body.items.map((item: Data) => item.id)).toEqual(refused.stock.items.map((item: Data) => item.id));
      for (const item of body.items) expect([item.id, item.translationStatus, item.translationReady]).toEqual([item.id, 'ready', true]);
    });
  });
});
