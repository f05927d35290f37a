import { DynamicModule } from '@nestjs/common';
import { ANALYSIS_PROVIDER, AnalysisProvider, DisabledAnalysisProvider } from '../../../providers/analysis-provider';
import { RssFeedsClient } from '../../../providers/feeds/rss-feeds.client';
import { ProviderSlotModule } from '../../../providers/kit/provider-slot.module';
import { DisabledNewsSourceProvider, NEWS_SOURCE_PROVIDER, NewsSourceProvider } from '../../../providers/news-source-provider';
import { OpenAiAnalysisProvider } from '../../../providers/openai/openai-analysis.provider';
import { BuiltinAnalyser } from '../analysis/builtin-analyser';

/**
 * The news slots: NEWS_SOURCE_PROVIDER (RSS 2.0 and Atom feeds; which feeds is configuration, NEWS_FEEDS and
 * NEWS_STOCK_FEED_URL) and ANALYSIS_PROVIDER (NEWS_ANALYSIS_VENDOR: an OpenAI-compatible server, the
 * built-in analyser, or none).
 */
export function newsProviderSlots(): DynamicModule[] {
  return [
    ProviderSlotModule.register<NewsSourceProvider>({
      token: NEWS_SOURCE_PROVIDER,
      kind: 'news sources',
      vendors: { rss: RssFeedsClient },
      choose: () => 'rss',
      disabled: () => new DisabledNewsSourceProvider(),
    }),
    ProviderSlotModule.register<AnalysisProvider>({
      token: ANALYSIS_PROVIDER,
      kind: 'news analysis',
      vendors: { openai: OpenAiAnalysisProvider, builtin: BuiltinAnalyser },
      choose: (config) => config.get('news.analysisVendor', { infer: true }),
      disabled: () => new DisabledAnalysisProvider(),
    }),
  ];
}
