import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../../config/app.config';
import { MemoryKvStore } from '../../../infra/kv/memory-kv.store';
import { AnalysisProvider, AnalysisText, EnglishAnalysis, NewsLocale, TRANSLATED_LOCALES } from '../../../providers/analysis-provider';
import { UpstreamError } from '../../../providers/kit/upstream.error';
import { NewsAnalysisRepository } from '../news-analysis.repository';
import { AnalysisState, NewsAnalysisRow, NewsItemRow } from '../news-rows';
import { NewsRepository } from '../news.repository';
import { MAX_ANALYSIS_ATTEMPTS, NewsAnalyseJob } from './news-analyse.job';

const ENGLISH: EnglishAnalysis = {
  title: 'Bitcoin ETF inflows build',
  coreSummary: 'Spot bitcoin ETFs took in more money.',
  direction: 'bullish',
  affectedAssets: 'BTC (Bitcoin)',
  impactLogic: 'Inflows add spot demand.',
  timeHorizon: 'short_term',
  risksAndWatchlist: 'Watch for outflows.',
  sentiment: 0.4,
};

function item(id: number, analysisState: AnalysisState, locales: NewsLocale[] = [], attempts = 0): NewsItemRow & { attempts: number } {
  return {
    id,
    source: 'sim-coindesk',
    title: `item ${id}`,
    summary: '',
    url: `https://x.example/${id}`,
    imageUrl: null,
    publisher: null,
    publishedAt: new Date(0),
    tags: [],
    concepts: ['etf'],
    contentClass: 'normal',
    sentiment: null,
    analysisState,
    locales,
    attempts,
  };
}

/** The queue as the job sees it: what it was given, and every write the job made. */
function fakeQueue(due: Array<NewsItemRow & { attempts: number }>) {
  const queue = {
    due: jest.fn(async () => due),
    storeEnglish: jest.fn(async (_id: number, _analysis: EnglishAnalysis, _by: unknown, _translate: boolean) => undefined),
    storeTranslation: jest.fn(async (_id: number, _locale: NewsLocale, _text: AnalysisText, _by: unknown, _complete: boolean) => undefined),
    recordFailure: jest.fn(async (_id: number, _retry: { dueAt: Date; giveUp: boolean }) => undefined),
    markReady: jest.fn(async (_id: number) => undefined),
  };
  return { queue, repository: queue as unknown as NewsAnalysisRepository };
}

function fakeNews(analyses: NewsAnalysisRow[] = []) {
  return { assetsOf: jest.fn(async () => []), analysesOf: jest.fn(async () => analyses) } as unknown as NewsRepository;
}

function analyser(overrides: Partial<AnalysisProvider> = {}): AnalysisProvider {
  return {
    name: 'openai',
    model: 'test-model#p1',
    translates: true,
    analyse: jest.fn(async () => ENGLISH),
    translate: jest.fn(async ({ locale }: { locale: NewsLocale }) => ({ ...ENGLISH, title: `${locale} title` })),
    ...overrides,
  };
}

function config(news: Partial<AppConfig['news']> = {}) {
  return new ConfigService<AppConfig, true>({
    news: { translationsEnabled: true, analysisConcurrency: 2, analysisCallsPerHour: 100, analysisBatch: 10, ...news },
  });
}

const englishRow = { newsId: 1, locale: 'en', ...ENGLISH, provider: 'openai', model: 'test-model#p1', generatedAt: new Date(0) } as NewsAnalysisRow;

describe(NewsAnalyseJob.name, () => {
  it('stores the English analysis with its provenance and queues translations when the analyser translates', async () => {
    const { queue, repository } = fakeQueue([item(1, 'pending')]);
    const sut = new NewsAnalyseJob(analyser(), repository, fakeNews(), new MemoryKvStore(), config());

    const outcome = await sut.run();

    expect(outcome).toMatchObject({ rows: 1, failures: 0 });
    expect(queue.storeEnglish).toHaveBeenCalledWith(1, ENGLISH, { provider: 'openai', model: 'test-model#p1' }, true);
    expect(queue.recordFailure).not.toHaveBeenCalled();
  });

  it('queues no translation when translations are off', async () => {
    const { queue, repository } = fakeQueue([item(1, 'pending')]);
    const sut = new NewsAnalyseJob(analyser(), repository, fakeNews(), new MemoryKvStore(), config({ translationsEnabled: false }));

    await sut.run();

    expect(queue.storeEnglish.mock.calls[0][3]).toBe(false);
  });

  it('stores nothing for a refused or malformed answer and schedules the item again, later each time', async () => {
    const refused = new UpstreamError({ provider: 'openai', kind: 'shape', message: 'the model refused' });
    const { queue, repository } = fakeQueue([item(1, 'pending', [], 0), item(2, 'pending', [], 3)]);
    const sut = new NewsAnalyseJob(analyser({ analyse: jest.fn().mockRejectedValue(refused) }), repository, fakeNews(), new MemoryKvStore(), config());

    const before = Date.now();
    const outcome = await sut.run();

    expect(outcome).toMatchObject({ rows: 0, failures: 2 });
    expect(queue.storeEnglish).not.toHaveBeenCalled();
    const retries = new Map(queue.recordFailure.mock.calls.map(([id, retry]) => [id, retry]));
    expect(retries.get(1)!.giveUp).toBe(false);
    expect(retries.get(2)!.dueAt.getTime() - before).toBeGreaterThan(retries.get(1)!.dueAt.getTime() - before);
  });

  it(`gives an item up after ${MAX_ANALYSIS_ATTEMPTS} failed attempts`, async () => {
    const { queue, repository } = fakeQueue([item(1, 'pending', [], MAX_ANALYSIS_ATTEMPTS - 1)]);
    const failing = analyser({
      analyse: jest.fn().mockRejectedValue(new UpstreamError({ provider: 'openai', kind: 'http', upstreamStatus: 500, message: 'x' })),
    });
    const sut = new NewsAnalyseJob(failing, repository, fakeNews(), new MemoryKvStore(), config());

    await sut.run();

    expect(queue.recordFailure.mock.calls[0][1].giveUp).toBe(true);
  });

  it('translates only the missing locales, marking the item complete with the last one', async () => {
    const have: NewsLocale[] = ['en', 'fr', 'ko'];
    const { queue, repository } = fakeQueue([item(1, 'translating', have)]);
    const sut = new NewsAnalyseJob(analyser(), repository, fakeNews([englishRow]), new MemoryKvStore(), config());

    await sut.run();

    const locales = queue.storeTranslation.mock.calls.map(([, locale]) => locale);
    expect(locales).toEqual(TRANSLATED_LOCALES.filter((locale) => !have.includes(locale)));
    expect(queue.storeTranslation.mock.calls.map(([, , , , complete]) => complete)).toEqual(locales.map((_, i) => i === locales.length - 1));
  });

  it('stops once the hourly budget is spent, leaving the rest for the next window without counting them as failures', async () => {
    const { queue, repository } = fakeQueue([item(1, 'pending'), item(2, 'pending'), item(3, 'pending')]);
    const sut = new NewsAnalyseJob(analyser(), repository, fakeNews(), new MemoryKvStore(), config({ analysisCallsPerHour: 2, analysisConcurrency: 1 }));

    const outcome = await sut.run();

    expect(outcome).toMatchObject({ rows: 2, failures: 0, details: { budgetSpent: true } });
    expect(queue.storeEnglish).toHaveBeenCalledTimes(2);
    expect(queue.recordFailure).not.toHaveBeenCalled();
  });
});
