import { refuseAs } from './kit/provider-disabled.error';

export const ANALYSIS_PROVIDER = Symbol('ANALYSIS_PROVIDER');

/** Locales of the contract (part 4.4). */
export type NewsLocale = 'en' | 'zh-CN' | 'zh-TW' | 'fr' | 'ru' | 'es' | 'ar' | 'ko';

export interface AnalyseNewsParams {
  title: string;
  summary: string;
  locale: NewsLocale;
  /** Symbols of the assets the item may be about, to link and to scope the analysis. */
  candidateSymbols: readonly string[];
  signal?: AbortSignal;
}

/** The analysis block of a NewsItem (contract part 2.5), plus the item-level figures it drives. */
export interface NewsAnalysis {
  locale: NewsLocale;
  title: string;
  coreSummary: string;
  direction: 'bullish' | 'bearish' | 'neutral';
  affectedAssets: string;
  impactLogic: string;
  timeHorizon: string;
  risksAndWatchlist: string;
  /** -1 (bearish) to 1 (bullish), as a decimal string. */
  sentiment: string;
  tags: string[];
  concepts: string[];
  /** Which model (and prompt version) wrote it: stored with the analysis for provenance. */
  model: string;
}

/**
 * The news analyser: an OpenAI-compatible chat model with a strict JSON schema, or an offline scorer. A
 * refusal, a truncated or off-schema answer is an UpstreamError of kind 'shape': no half analysis is stored.
 */
export interface AnalysisProvider {
  readonly name: string;
  analyse(params: AnalyseNewsParams): Promise<NewsAnalysis>;
}

/** Answers when no analyser is configured or analysis is switched off. */
export class DisabledAnalysisProvider implements AnalysisProvider {
  readonly name = 'none';
  analyse = refuseAs('news analysis');
}
