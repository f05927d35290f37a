import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { isAbortError } from '../../../common/async/abort';
import { mapLimit } from '../../../common/async/map-limit';
import { AppConfig } from '../../../config/app.config';
import { KV_STORE, KvStore } from '../../../infra/kv/kv-store';
import { JobOutcome, JobProgress } from '../../../jobs/job.types';
import { ANALYSIS_PROVIDER, AnalysisProvider, TRANSLATED_LOCALES } from '../../../providers/analysis-provider';
import { RequestBudget } from '../../../providers/kit/request-budget';
import { UpstreamError } from '../../../providers/kit/upstream.error';
import { BuiltinAnalyser } from '../analysis/builtin-analyser';
import { NewsAnalysisRepository } from '../news-analysis.repository';
import { NewsItemRow } from '../news-rows';
import { NewsRepository } from '../news.repository';

const HOUR_MS = 3_600_000;
/** A failed item is tried again after 1, 2, 4 ... minutes, at most 6 hours apart, and given up after MAX_ATTEMPTS. */
const RETRY_BASE_MS = 60_000;
const RETRY_MAX_MS = 6 * HOUR_MS;
export const MAX_ANALYSIS_ATTEMPTS = 8;

type DueItem = NewsItemRow & { attempts: number };

/**
 * Writes the analysis of new items off the request path: the English analysis first (it sets the item's
 * sentiment), then, with an analyser that translates, the seven other locales one call each. Calls spend
 * to a model spend from an hourly budget all replicas share (the cost budget); once it is spent the run stops and the rest
 * wait for the next window. A refused, truncated or malformed answer stores nothing and is retried later.
 */
@Injectable()
export class NewsAnalyseJob {
  private readonly logger = new Logger(NewsAnalyseJob.name);
  private readonly settings: AppConfig['news'];
  readonly budget: RequestBudget;

  constructor(
    @Inject(ANALYSIS_PROVIDER) private readonly analyser: AnalysisProvider,
    private readonly queue: NewsAnalysisRepository,
    private readonly news: NewsRepository,
    @Inject(KV_STORE) kv: KvStore,
    config: ConfigService<AppConfig, true>,
  ) {
    this.settings = config.get('news', { infer: true });
    this.budget = new RequestBudget({ kv, provider: 'news-analysis', weightPerWindow: this.settings.analysisCallsPerHour, windowMs: HOUR_MS });
  }

  async run(signal?: AbortSignal, progress?: JobProgress): Promise<JobOutcome> {
    const due = await this.queue.due(new Date(), this.settings.analysisBatch);
    if (due.length === 0) return { rows: 0 };
    const assets = await this.news.assetsOf(due.map((item) => item.id));
    const tally = { stored: 0, budgetSpent: false };
    const failures = await mapLimit(
      due,
      this.settings.analysisConcurrency,
      async (item) => {
        if (tally.budgetSpent) return;
        progress?.report(`analysing ${tally.stored} stored, item ${item.id}`);
        try {
          // Awaited before adding: `tally.stored += await ...` would read the count before the await and lose concurrent additions.
          const stored = await (item.analysisState === 'pending' ? this.analyseEnglish(item, assets, signal) : this.translate(item, signal));
          tally.stored += stored;
        } catch (error) {
          if (isAbortError(error)) throw error;
          if (error instanceof UpstreamError && error.kind === 'budget') {
            tally.budgetSpent = true;
            return;
          }
          await this.queue.recordFailure(item.id, retryOf(item.attempts));
          throw error;
        }
      },
      { signal, onError: (item, error) => this.logger.warn(`analysis of news ${item.id} failed: ${String(error)}`) },
    );
    return { rows: tally.stored, failures, details: { items: due.length, budgetSpent: tally.budgetSpent } };
  }

  private async analyseEnglish(item: DueItem, assets: Awaited<ReturnType<NewsRepository['assetsOf']>>, signal?: AbortSignal): Promise<number> {
    await this.spend(signal);
    const linked = assets.filter((asset) => asset.newsId === item.id).map(({ symbol, name, type }) => ({ symbol, name, type }));
    const analysis = await this.analyser.analyse({ title: item.title, summary: item.summary, assets: linked, concepts: item.concepts, signal });
    const translate = this.analyser.translates && this.settings.translationsEnabled;
    await this.queue.storeEnglish(item.id, analysis, this.provenance(), translate);
    return 1;
  }

  /** Every locale still missing, one call each; each stored as it comes, so a later failure loses none. */
  private async translate(item: DueItem, signal?: AbortSignal): Promise<number> {
    const [english] = await this.news.analysesOf([item.id], ['en']);
    if (!english) throw new Error(`news ${item.id} is waiting for translations but has no English analysis`);
    const missing = TRANSLATED_LOCALES.filter((locale) => !item.locales.includes(locale));
    if (missing.length === 0) {
      await this.queue.markReady(item.id);
      return 0;
    }
    let stored = 0;
    for (const [index, locale] of missing.entries()) {
      await this.spend(signal);
      const text = await this.analyser.translate({ analysis: english, locale, signal });
      await this.queue.storeTranslation(item.id, locale, text, this.provenance(), index === missing.length - 1);
      stored += 1;
    }
    return stored;
  }

  /** The built-in analyser costs nothing but CPU: only calls to a model spend from the budget. */
  private async spend(signal?: AbortSignal): Promise<void> {
    if (this.analyser instanceof BuiltinAnalyser) return;
    await this.budget.spend(1, { signal, maxWaitMs: 0 });
  }

  private provenance() {
    return { provider: this.analyser.name, model: this.analyser.model };
  }
}

function retryOf(attempts: number): { dueAt: Date; giveUp: boolean } {
  const delay = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** attempts);
  return { dueAt: new Date(Date.now() + delay), giveUp: attempts + 1 >= MAX_ANALYSIS_ATTEMPTS };
}
