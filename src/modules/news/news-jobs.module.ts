import { Module, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { JobRegistry } from '../../jobs/job-registry';
import { NewsAnalyseJob } from './jobs/news-analyse.job';
import { NewsIngestJob } from './jobs/news-ingest.job';
import { NewsAnalysisRepository } from './news-analysis.repository';
import { NewsIngestRepository } from './news-ingest.repository';
import { NewsRepository } from './news.repository';
import { newsProviderSlots } from './providers/news-providers.module';

const MINUTE = 60_000;

/** What keeps the news: the feed and analyser slots and the two jobs (news.ingest, news.analyse). The API and the ops CLI both use it. */
@Module({
  imports: [...newsProviderSlots()],
  providers: [NewsRepository, NewsIngestRepository, NewsAnalysisRepository, NewsIngestJob, NewsAnalyseJob],
  exports: [NewsRepository],
})
export class NewsJobsModule implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly config: ConfigService<AppConfig, true>,
    private readonly ingest: NewsIngestJob,
    private readonly analyse: NewsAnalyseJob,
  ) {}

  onModuleInit() {
    const schedules = this.config.get('jobs.schedules', { infer: true });
    this.registry.register({
      name: 'news.ingest',
      ...schedules['news.ingest'],
      leaseMs: 5 * MINUTE,
      run: (signal, progress) => this.ingest.run(signal, progress),
    });
    this.registry.register({
      name: 'news.analyse',
      ...schedules['news.analyse'],
      leaseMs: 10 * MINUTE,
      run: (signal, progress) => this.analyse.run(signal, progress),
      describeLoad: () => (this.analyse.budget.waiting > 0 ? 'waiting for the hourly analysis budget' : undefined),
    });
  }
}
