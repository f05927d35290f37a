import { Injectable } from '@nestjs/common';
import Sentiment from 'sentiment';
import AFINN from 'sentiment/languages/en/labels.json';
import NEGATORS from 'sentiment/languages/en/negators.json';
import type {
  AnalyseNewsParams,
  AnalysisProvider,
  AnalysisText,
  Direction,
  EnglishAnalysis,
  LinkedAssetRef,
  TimeHorizon,
} from '../../../providers/analysis-provider';
import type { NewsConcept } from './concepts';
import { FINANCE_LEXICON, toLexiconText } from './finance-lexicon';

/**
 * AFINN with the finance overlay, registered as a language of its own: `analyze(text, { extras })` in sentiment 5.0.2
 * merges the extras into the shared English table in place, so every other caller in the process would inherit them.
 */
const FINANCE_LANGUAGE = 'en-finance';
const negators: Readonly<Record<string, number>> = NEGATORS;
const sentiment = new Sentiment();
sentiment.registerLanguage(FINANCE_LANGUAGE, {
  labels: { ...AFINN, ...FINANCE_LEXICON },
  // AFINN's own rule: a word right after a negator ("not", "isn't") counts with the opposite sign.
  scoringStrategy: { apply: (tokens, cursor, score) => (cursor > 0 && negators[tokens[cursor - 1]] ? -score : score) },
});

/** The headline says what the item is about; the summary adds detail, so it weighs half as much. */
const TITLE_WEIGHT = 2;
/** AFINN's comparative (score per word) of a headline with one strong word is about 0.2-0.4; scaled to use the -1..1 range. */
const SENTIMENT_SCALE = 2;
/** Below this magnitude the wording is mixed or flat: neutral. */
const DIRECTION_THRESHOLD = 0.05;
const TITLE_MAX = 200;
const SUMMARY_MAX = 400;
const LISTED_ASSETS_MAX = 8;
const CUES_SHOWN = 4;
/** A lead sentence shorter than this takes the next one along. */
const SHORT_SENTENCE = 120;

/** Words that date the effect, checked in this order; then the topic's usual horizon; short term otherwise. */
const HORIZON_WORDS: ReadonlyArray<readonly [TimeHorizon, RegExp]> = [
  [
    'intraday',
    /\b(?:today|tonight|intraday|overnight|this (?:morning|afternoon|evening)|(?:past|last|next|within|in) (?:\d+ |few |several )?hours|24 hours|flash crash|liquidat\w*)\b/i,
  ],
  ['long_term', /\b(?:years|decades?|roadmap|long[\s-]term|multi[\s-]year|by 20\d\d|next decade|generational|structural)\b/i],
  ['medium_term', /\b(?:quarters?|quarterly|earnings|months|next year|this year|fiscal|q[1-4]|guidance)\b/i],
];
const HORIZON_OF_CONCEPT: Readonly<Partial<Record<string, TimeHorizon>>> = {
  liquidations: 'intraday',
  earnings: 'medium_term',
  regulation: 'long_term',
  ipo: 'medium_term',
  tokenization: 'long_term',
  upgrade: 'medium_term',
};

/** What to watch after an item on each topic, most pressing first; the first three topics found are used. */
// Typed by NewsConcept, so a new topic without a watch line fails to compile.
const WATCH_BY_CONCEPT: Readonly<Record<NewsConcept, string>> = {
  hack: 'Watch fund recovery, exchange freezes of stolen funds and the post-mortem; more losses may surface.',
  liquidations: 'Watch funding rates and open interest for further forced selling.',
  lawsuit: 'Watch court rulings, settlements and any penalties that follow.',
  regulation: 'Watch for regulatory follow-through: final rules, votes, or enforcement that changes the picture.',
  earnings: 'Watch guidance, margins and the market reaction in the next sessions.',
  macro: 'Watch the next rate decision and inflation and jobs data, which can reverse the move.',
  etf: 'Watch ETF flows and issuer filings for confirmation of demand.',
  listing: 'Watch trading volume and liquidity once the listing or delisting takes effect.',
  acquisition: 'Watch regulatory approval and deal terms before completion.',
  ipo: 'Watch pricing, the first trading days and lock-up expiries.',
  funding: 'Watch how the capital is deployed and the terms of the round.',
  partnership: 'Watch whether the partnership ships and brings measurable usage.',
  stablecoin: 'Watch stablecoin supply, reserves and the peg.',
  defi: 'Watch total value locked, governance votes and smart-contract risk.',
  upgrade: 'Watch the rollout for delays, bugs or chain halts.',
  tokenization: 'Watch adoption by institutions and the regulatory treatment of tokenized assets.',
  treasury: 'Watch treasury companies buying or selling and their financing terms.',
  mining: 'Watch hashrate, miner revenue and selling by miners.',
  airdrop: 'Watch selling pressure when the airdropped tokens unlock.',
  layoffs: 'Watch for further cost cuts and what they say about demand.',
  nft: 'Watch trading volume and floor prices for follow-through.',
  'prediction-markets': 'Watch regulatory treatment of prediction markets and trading volumes.',
};
const WATCH_BY_DIRECTION: Readonly<Record<Direction, string>> = {
  bullish: 'A reversal below recent support or a fading follow-through would undo the positive read.',
  bearish: 'A quick recovery or offsetting good news would undo the negative read.',
  neutral: 'Watch for follow-up reporting and price confirmation before drawing a direction.',
};

/**
 * The offline analyser (NEWS_ANALYSIS_VENDOR=builtin): a finance-tuned AFINN lexicon for the score and templates for
 * the text. Deterministic, English only, no network; the linker's assets and concepts supply the rest.
 */
@Injectable()
export class BuiltinAnalyser implements AnalysisProvider {
  readonly name = 'builtin';
  /** Bump when the lexicon, thresholds or templates change, so stored analyses show which rules wrote them. */
  readonly model = 'builtin-lexicon#1';
  readonly translates = false;

  analyse({ title, summary, assets, concepts, signal }: AnalyseNewsParams): Promise<EnglishAnalysis> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const cleanSummary = cleanText(summary);
    const lead = leadSentences(cleanSummary);
    const headline = capAtWord(cleanText(title), TITLE_MAX) || capAtWord(lead, TITLE_MAX) || 'Untitled news item';
    const score = scoreOf(headline, cleanSummary);
    const direction: Direction = score.value > DIRECTION_THRESHOLD ? 'bullish' : score.value < -DIRECTION_THRESHOLD ? 'bearish' : 'neutral';
    const text = `${headline}\n${cleanSummary}`;
    return Promise.resolve({
      title: headline,
      coreSummary: capAtWord(lead, SUMMARY_MAX) || headline,
      direction,
      affectedAssets: affectedAssetsOf(assets),
      impactLogic: impactLogicOf({ direction, score, concepts, assets }),
      timeHorizon: horizonOf(text, concepts),
      risksAndWatchlist: watchlistOf(direction, concepts, assets),
      sentiment: score.value,
    });
  }

  translate(): Promise<AnalysisText> {
    return Promise.reject(new Error('the builtin analyser writes English only; translations need an OpenAI-compatible analyser'));
  }
}

interface Score {
  value: number;
  positive: string[];
  negative: string[];
}

function scoreOf(title: string, summary: string): Score {
  const head = sentiment.analyze(toLexiconText(title), { language: FINANCE_LANGUAGE });
  const body = sentiment.analyze(toLexiconText(summary), { language: FINANCE_LANGUAGE });
  const comparative = summary ? (TITLE_WEIGHT * head.comparative + body.comparative) / (TITLE_WEIGHT + 1) : head.comparative;
  const value = Math.round(Math.min(1, Math.max(-1, comparative * SENTIMENT_SCALE)) * 1000) / 1000;
  // Title words first: they drive the score most. The package lists words last-seen first, so reverse to reading order.
  const words = (pick: 'positive' | 'negative') => unique([...[...head[pick]].reverse(), ...[...body[pick]].reverse()]);
  return { value: value === 0 ? 0 : value, positive: words('positive'), negative: words('negative') };
}

function impactLogicOf({
  direction,
  score,
  concepts,
  assets,
}: {
  direction: Direction;
  score: Score;
  concepts: readonly string[];
  assets: readonly LinkedAssetRef[];
}): string {
  const quote = (words: string[]) =>
    words
      .slice(0, CUES_SHOWN)
      .map((word) => `"${word}"`)
      .join(', ');
  const cues = [score.positive.length > 0 && `positive cues ${quote(score.positive)}`, score.negative.length > 0 && `negative cues ${quote(score.negative)}`]
    .filter(Boolean)
    .join('; ');
  const reading = cues
    ? `Read as ${direction} (lexicon score ${score.value}) from the wording: ${cues}.`
    : 'No strongly positive or negative market wording was found, so the item is read as neutral.';
  const topics = concepts.length > 0 ? ` Topics: ${concepts.join(', ')}.` : '';
  const scope = assets.length > 0 ? ` Applies to ${symbolsOf(assets)}.` : ' No single asset is named, so it is read as broad-market news.';
  return `${reading}${topics}${scope}`;
}

function horizonOf(text: string, concepts: readonly string[]): TimeHorizon {
  for (const [horizon, words] of HORIZON_WORDS) if (words.test(text)) return horizon;
  for (const concept of concepts) {
    const horizon = HORIZON_OF_CONCEPT[concept];
    if (horizon) return horizon;
  }
  return 'short_term';
}

function watchlistOf(direction: Direction, concepts: readonly string[], assets: readonly LinkedAssetRef[]): string {
  const topical = Object.entries(WATCH_BY_CONCEPT)
    .filter(([concept]) => concepts.includes(concept))
    .slice(0, 3)
    .map(([, watch]) => watch);
  const watch = assets.length > 0 ? `Watch: ${symbolsOf(assets)}.` : 'Watch: broad crypto and equity benchmarks.';
  return [...topical, WATCH_BY_DIRECTION[direction], watch].join(' ');
}

function affectedAssetsOf(assets: readonly LinkedAssetRef[]): string {
  if (assets.length === 0) return 'No specific asset; broad market';
  const listed = assets.slice(0, LISTED_ASSETS_MAX).map(({ symbol, name }) => (name && name !== symbol ? `${symbol} (${name})` : symbol));
  const more = assets.length - LISTED_ASSETS_MAX;
  return capAtWord(more > 0 ? `${listed.join(', ')} and ${more} more` : listed.join(', '), 480);
}

function symbolsOf(assets: readonly LinkedAssetRef[]): string {
  const symbols = unique(assets.map((asset) => asset.symbol));
  return symbols.length > LISTED_ASSETS_MAX ? `${symbols.slice(0, LISTED_ASSETS_MAX).join(', ')} and others` : symbols.join(', ');
}

/** Plain text: tags dropped, whitespace collapsed. */
function cleanText(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Abbreviations whose full stop does not end a sentence ("U.S. Bank", "Dec. 12"). */
const NOT_SENTENCE_END =
  /(?:\b[A-Z]|\bU\.S|\bU\.K|\bInc|\bCorp|\bLtd|\bCo|\bMr|\bMs|\bDr|\bSt|\bvs|\bNo|\bJan|\bFeb|\bMar|\bApr|\bJun|\bJul|\bAug|\bSep|\bSept|\bOct|\bNov|\bDec|\be\.g|\bi\.e)\.$/;

/** The first sentence, and the second too when the first is short. */
function leadSentences(text: string): string {
  const sentences: string[] = [];
  let start = 0;
  for (const match of text.matchAll(/[.!?](?=\s+["“‘(]?[A-Z0-9])/g)) {
    const end = (match.index ?? 0) + 1;
    if (NOT_SENTENCE_END.test(text.slice(start, end))) continue;
    sentences.push(text.slice(start, end).trim());
    start = end;
    if (sentences.length === 2) break;
  }
  if (sentences.length < 2) sentences.push(text.slice(start).trim());
  const [first = '', second] = sentences.filter(Boolean);
  return second && first.length < SHORT_SENTENCE ? `${first} ${second}` : first;
}

function capAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
