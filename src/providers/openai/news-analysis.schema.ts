import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import { DIRECTIONS, EnglishAnalysis, TIME_HORIZONS } from '../analysis-provider';

/** The text fields a translation rewrites; `direction` stays the English enum value and is copied, not asked for. */
export const TRANSLATED_FIELDS = ['title', 'coreSummary', 'affectedAssets', 'impactLogic', 'timeHorizon', 'risksAndWatchlist'] as const;
export type TranslatedField = (typeof TRANSLATED_FIELDS)[number];

type JsonSchema = Record<string, unknown>;

const text = (description: string): JsonSchema => ({ type: 'string', description });

/**
 * Strict structured output: every property required and no other allowed, at every level. Only structural
 * keywords and `enum`: ranges and lengths (minimum, maxLength) are not honoured by every server's
 * constrained decoder (some reject the request), so they are stated in descriptions and checked on our side.
 */
function strictObject(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

function strictFormat(name: string, schema: JsonSchema): ResponseFormatJSONSchema {
  return { type: 'json_schema', json_schema: { name, strict: true, schema } };
}

const ANALYSIS_PROPERTIES: Record<keyof EnglishAnalysis, JsonSchema> = {
  title: text('A neutral English headline for the item, at most 120 characters.'),
  coreSummary: text('What happened, in two or three factual sentences.'),
  direction: { type: 'string', enum: [...DIRECTIONS], description: 'The likely price direction for the affected assets.' },
  affectedAssets: text('The assets most affected, comma-separated as "SYMBOL (Name)"; the asset class when no asset is linked.'),
  impactLogic: text('Why the news moves those assets, in one to three sentences.'),
  timeHorizon: { type: 'string', enum: [...TIME_HORIZONS], description: 'When the effect plays out.' },
  risksAndWatchlist: text('What could change the view and what to watch next, in one to three sentences.'),
  sentiment: { type: 'number', description: 'From -1 (very bearish) through 0 (neutral) to 1 (very bullish), agreeing with direction.' },
};

const TRANSLATION_PROPERTIES: Record<TranslatedField, JsonSchema> = {
  title: text('The headline, translated.'),
  coreSummary: text('The summary, translated.'),
  affectedAssets: text('The affected assets, names translated where the language has a usual name; tickers unchanged.'),
  impactLogic: text('The impact logic, translated.'),
  timeHorizon: text('The time horizon as words of the target language, not the English code.'),
  risksAndWatchlist: text('The risks and watchlist, translated.'),
};

/** Sent as `response_format` when asking for the English analysis. */
export const NEWS_ANALYSIS_FORMAT = strictFormat('news_analysis', strictObject(ANALYSIS_PROPERTIES));

/** Sent as `response_format` when asking for one locale's translation of it. */
export const NEWS_TRANSLATION_FORMAT = strictFormat('news_analysis_translation', strictObject(TRANSLATION_PROPERTIES));
