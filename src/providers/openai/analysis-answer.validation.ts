import { AnalysisText, DIRECTIONS, EnglishAnalysis, TIME_HORIZONS, TranslateAnalysisParams } from '../analysis-provider';
import { Fields, SchemaReader } from '../kit/schema-reader';
import { TRANSLATED_FIELDS, TranslatedField } from './news-analysis.schema';
import { OPENAI_PROVIDER } from './openai-upstream-error';

const { asObject, shapeError } = new SchemaReader(OPENAI_PROVIDER);

/** Longest text accepted per field, in characters: well above what the prompts ask for, so only runaway answers fail. */
export const ANSWER_MAX_LENGTHS: Readonly<Record<TranslatedField, number>> = {
  title: 300,
  coreSummary: 2_000,
  affectedAssets: 500,
  impactLogic: 2_000,
  timeHorizon: 80,
  risksAndWatchlist: 2_000,
};

type TranslatedLocale = TranslateAnalysisParams['locale'];

/** The script a translation's prose must use; French and Spanish share English's, so only echoes of the English catch them. */
const LOCALE_SCRIPTS: Readonly<Record<TranslatedLocale, RegExp | null>> = {
  'zh-CN': /\p{Script=Han}/u,
  'zh-TW': /\p{Script=Han}/u,
  ru: /\p{Script=Cyrillic}/u,
  ar: /\p{Script=Arabic}/u,
  ko: /\p{Script=Hangul}/u,
  fr: null,
  es: null,
};
/** Sentences and the horizon words always carry the target script; a title or asset list may be names and tickers only. */
const SCRIPT_FIELDS: readonly TranslatedField[] = ['coreSummary', 'impactLogic', 'timeHorizon', 'risksAndWatchlist'];

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** Servers that do not enforce the schema (Ollama Cloud) sometimes wrap the JSON in a Markdown fence. */
const FENCED = /^```(?:json)?\s*([\s\S]*?)\s*```$/i;
/** Reasoning models served without a reasoning parser (Qwen3, DeepSeek-R1) put their thinking before the answer. */
const LEADING_THOUGHTS = /^<think>[\s\S]*?<\/think>\s*/;

/**
 * The English analysis in a model's answer, checked again on our side: a server may not enforce the schema,
 * and even one that does lets a model fill a required field with junk. Throws UpstreamError 'shape' naming the
 * field and the problem, never the value.
 */
export function readAnalysisAnswer(content: string): EnglishAnalysis {
  const answer = parseAnswer(content);
  const direction = answer.oneOf('direction', DIRECTIONS);
  const sentiment = answer.raw.sentiment;
  if (typeof sentiment !== 'number' || !Number.isFinite(sentiment) || sentiment < -1 || sentiment > 1) {
    throw shapeError(answer.at('sentiment'), 'expected a number from -1 to 1');
  }
  // The two drive the item's score and its label; stored apart they would contradict each other on screen.
  if ((direction === 'bullish' && sentiment < 0) || (direction === 'bearish' && sentiment > 0)) {
    throw shapeError(answer.at('sentiment'), `sign contradicts direction ${direction}`);
  }
  return {
    title: readText(answer, 'title'),
    coreSummary: readText(answer, 'coreSummary'),
    direction,
    affectedAssets: readText(answer, 'affectedAssets'),
    impactLogic: readText(answer, 'impactLogic'),
    timeHorizon: answer.oneOf('timeHorizon', TIME_HORIZONS),
    risksAndWatchlist: readText(answer, 'risksAndWatchlist'),
    sentiment,
  };
}

/**
 * One locale's translation of `source`, checked like the English answer and, beyond that, refused when it
 * is the English again (every field the same, the horizon left as a code, or no letter of the target
 * script). A single field equal to the English is fine: tickers and names often stay as they are.
 */
export function readTranslationAnswer({ content, source, locale }: { content: string; source: AnalysisText; locale: TranslatedLocale }): AnalysisText {
  const answer = parseAnswer(content);
  const translated = Object.fromEntries(TRANSLATED_FIELDS.map((field) => [field, readText(answer, field)])) as Record<TranslatedField, string>;
  if (TRANSLATED_FIELDS.every((field) => sameText(translated[field], source[field]))) throw shapeError('answer', 'the English text, not a translation');
  if (translated.timeHorizon.includes('_')) throw shapeError(answer.at('timeHorizon'), 'a code, not words of the target language');
  const script = LOCALE_SCRIPTS[locale];
  const untranslated = script && SCRIPT_FIELDS.find((field) => !script.test(translated[field]));
  if (untranslated) throw shapeError(answer.at(untranslated), `not written in the script of ${locale}`);
  return { ...translated, direction: source.direction };
}

function parseAnswer(content: string): Fields {
  const trimmed = content.trim().replace(LEADING_THOUGHTS, '');
  const json = FENCED.exec(trimmed)?.[1] ?? trimmed;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw shapeError('answer', 'not JSON');
  }
  return asObject(parsed, 'answer');
}

function readText(answer: Fields, field: TranslatedField): string {
  const value = answer.string(field).trim();
  // Recorded in nested.json: a model fills a required field it cannot answer with ".".
  if ([...value].length < 2 || !LETTER_OR_DIGIT.test(value)) throw shapeError(answer.at(field), 'empty, one character or punctuation only');
  if (value.length > ANSWER_MAX_LENGTHS[field]) throw shapeError(answer.at(field), `longer than ${ANSWER_MAX_LENGTHS[field]} characters`);
  return value;
}

function sameText(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
