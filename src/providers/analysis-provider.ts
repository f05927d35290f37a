import { refuseAs } from './kit/provider-disabled.error';

export const ANALYSIS_PROVIDER = Symbol('ANALYSIS_PROVIDER');

/** Locales of the contract (part 4.4); English is written first, the others are translations of it. */
export const NEWS_LOCALES = ['en', 'zh-CN', 'zh-TW', 'fr', 'ru', 'es', 'ar', 'ko'] as const;
export type NewsLocale = (typeof NEWS_LOCALES)[number];
export const TRANSLATED_LOCALES = NEWS_LOCALES.filter((locale) => locale !== 'en');

export const DIRECTIONS = ['bullish', 'bearish', 'neutral'] as const;
export type Direction = (typeof DIRECTIONS)[number];
export const TIME_HORIZONS = ['intraday', 'short_term', 'medium_term', 'long_term'] as const;
export type TimeHorizon = (typeof TIME_HORIZONS)[number];

/** An asset the item was linked to (by the linker, before analysis). */
export interface LinkedAssetRef {
  symbol: string;
  name: string;
  /** CRYPTO, STOCK, ETF, FOREX or COMMODITY. */
  type: string;
}

/** The analysis block of a NewsItem (contract part 2.5), in one locale. */
export interface AnalysisText {
  title: string;
  coreSummary: string;
  direction: Direction;
  /** One string, as the contract has it: "BTC (Bitcoin), ETH (Ethereum)". */
  affectedAssets: string;
  impactLogic: string;
  /** One of TIME_HORIZONS in English; translated text in the other locales. */
  timeHorizon: string;
  risksAndWatchlist: string;
}

/** The English analysis and the item-level score it drives. */
export interface EnglishAnalysis extends AnalysisText {
  /** -1 (bearish) to 1 (bullish). */
  sentiment: number;
}

export interface AnalyseNewsParams {
  title: string;
  summary: string;
  /** Assets the linker found the item to be about; affected assets come from these. */
  assets: readonly LinkedAssetRef[];
  /** Topics the linker found (ETF, regulation, hack, earnings, listing, ...). */
  concepts: readonly string[];
  signal?: AbortSignal;
}

export interface TranslateAnalysisParams {
  analysis: AnalysisText;
  locale: Exclude<NewsLocale, 'en'>;
  signal?: AbortSignal;
}

/**
 * The news analyser: an OpenAI-compatible chat model asked for a strict JSON schema, or the built-in
 * lexicon analyser. A refusal, an answer cut at the token cap or one that fails validation rejects with
 * UpstreamError of kind 'shape': nothing half-made is ever stored, and the job retries the item later.
 */
export interface AnalysisProvider {
  /** Provenance, stored with every analysis: 'openai' (any compatible server) or 'builtin'. */
  readonly name: string;
  /** Provenance: the model (and prompt version) that writes, e.g. 'gpt-4o-mini#p1' or 'builtin-lexicon#1'. */
  readonly model: string;
  /** Whether translate() works (the built-in analyser writes English only). */
  readonly translates: boolean;
  analyse(params: AnalyseNewsParams): Promise<EnglishAnalysis>;
  translate(params: TranslateAnalysisParams): Promise<AnalysisText>;
}

/** Answers when analysis is switched off (NEWS_ANALYSIS_VENDOR=none): items stay pending. */
export class DisabledAnalysisProvider implements AnalysisProvider {
  readonly name = 'none';
  readonly model = 'none';
  readonly translates = false;
  analyse = refuseAs('news analysis');
  translate = refuseAs('news analysis');
}
