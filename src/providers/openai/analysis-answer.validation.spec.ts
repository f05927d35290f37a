import { shapeErrorOf, vendorFixture } from '../../../test/support/vendor-fixtures';
import { AnalysisText, EnglishAnalysis } from '../analysis-provider';
import { ANSWER_MAX_LENGTHS, readAnalysisAnswer, readTranslationAnswer } from './analysis-answer.validation';

const ANSWER: EnglishAnalysis = {
  title: 'SEC approves spot ether ETFs',
  coreSummary: 'The SEC approved the listing of eight spot ether ETFs, which may start trading within weeks.',
  direction: 'bullish',
  affectedAssets: 'ETH (Ethereum)',
  impactLogic: 'Approval opens ether to brokerage accounts and advisers, adding a new source of demand.',
  timeHorizon: 'medium_term',
  risksAndWatchlist: 'Watch the S-1 approvals and first-week flows; weak demand would fade the move.',
  sentiment: 0.7,
};

const { sentiment: _sentiment, ...ENGLISH } = ANSWER;
const SOURCE: AnalysisText = ENGLISH;

const KOREAN = {
  title: 'SEC, 현물 이더리움 ETF 승인',
  coreSummary: 'SEC가 현물 이더리움 ETF 8종의 상장을 승인했으며, 몇 주 안에 거래가 시작될 수 있다.',
  affectedAssets: 'ETH (이더리움)',
  impactLogic: '승인으로 증권 계좌와 자문사를 통한 새로운 수요가 열린다.',
  timeHorizon: '중기',
  risksAndWatchlist: 'S-1 승인과 첫 주 자금 유입을 지켜봐야 한다.',
};

/** The junk a real model put in a required field it could not fill (recorded in nested.json). */
const RECORDED_JUNK: string = JSON.parse(vendorFixture('openai', 'chat.completion.json_schema.nested.json').choices[0].message.content).person1.phone_number;

const analysisError = (answer: unknown) => shapeErrorOf(() => readAnalysisAnswer(JSON.stringify(answer)));
const translationError = (answer: unknown, locale: 'ko' | 'fr' | 'zh-CN' = 'ko') =>
  shapeErrorOf(() => readTranslationAnswer({ content: JSON.stringify(answer), source: SOURCE, locale }));

describe(readAnalysisAnswer.name, () => {
  it('returns every field of a valid answer, trimmed', () => {
    const sut = readAnalysisAnswer(JSON.stringify({ ...ANSWER, title: `  ${ANSWER.title}\n` }));
    expect(sut).toEqual(ANSWER);
  });

  it('reads an answer wrapped in a Markdown fence, as servers that ignore the schema send it', () => {
    expect(readAnalysisAnswer('```json\n' + JSON.stringify(ANSWER) + '\n```')).toEqual(ANSWER);
  });

  it('reads an answer after the thoughts of a reasoning model', () => {
    expect(readAnalysisAnswer('<think>\nThe item is about ETFs {maybe}.\n</think>\n\n' + JSON.stringify(ANSWER))).toEqual(ANSWER);
  });

  it('ignores keys beyond the schema', () => {
    expect(readAnalysisAnswer(JSON.stringify({ ...ANSWER, tags: ['etf'] }))).toEqual(ANSWER);
  });

  it('rejects content that is not JSON, or JSON that is not an object', () => {
    expect(shapeErrorOf(() => readAnalysisAnswer('{"')).message).toContain('answer: not JSON');
    expect(analysisError([ANSWER]).message).toContain('answer: expected object, got array');
  });

  it('rejects the recorded one-character junk in a required field', () => {
    expect(RECORDED_JUNK).toBe('.');
    expect(analysisError({ ...ANSWER, risksAndWatchlist: RECORDED_JUNK }).message).toContain(
      'answer.risksAndWatchlist: empty, one character or punctuation only',
    );
  });

  it.each([
    ['a missing field', undefined],
    ['a number', 3],
  ])('rejects %s where a text belongs', (_case, value) => {
    expect(analysisError({ ...ANSWER, impactLogic: value }).message).toContain('answer.impactLogic: expected string');
  });

  it.each(['', '   ', 'x', '...', '— –'])('rejects the text %p', (value) => {
    expect(analysisError({ ...ANSWER, coreSummary: value }).message).toContain('answer.coreSummary: empty, one character or punctuation only');
  });

  it('rejects a runaway text, naming the field but not the value', () => {
    const error = analysisError({ ...ANSWER, title: 'spam '.repeat(ANSWER_MAX_LENGTHS.title) });
    expect(error.message).toContain(`answer.title: longer than ${ANSWER_MAX_LENGTHS.title} characters`);
    expect(error.message).not.toContain('spam');
  });

  it('rejects a direction or horizon outside the enums', () => {
    expect(analysisError({ ...ANSWER, direction: 'up' }).message).toContain('answer.direction: expected "bullish" or "bearish" or "neutral"');
    expect(analysisError({ ...ANSWER, timeHorizon: 'short term' }).message).toContain('answer.timeHorizon: expected "intraday"');
  });

  it.each([1.5, -1.01, '0.5', null])('rejects the sentiment %p', (sentiment) => {
    expect(analysisError({ ...ANSWER, sentiment }).message).toContain('answer.sentiment: expected a number from -1 to 1');
  });

  it('accepts the bounds of the sentiment', () => {
    expect(readAnalysisAnswer(JSON.stringify({ ...ANSWER, sentiment: 1 })).sentiment).toBe(1);
    expect(readAnalysisAnswer(JSON.stringify({ ...ANSWER, direction: 'bearish', sentiment: -1 })).sentiment).toBe(-1);
  });

  it('rejects a sentiment whose sign contradicts the direction', () => {
    expect(analysisError({ ...ANSWER, direction: 'bullish', sentiment: -0.4 }).message).toContain('sign contradicts direction bullish');
    expect(analysisError({ ...ANSWER, direction: 'bearish', sentiment: 0.2 }).message).toContain('sign contradicts direction bearish');
  });
});

describe(readTranslationAnswer.name, () => {
  it('returns the translated fields with the English direction', () => {
    const sut = readTranslationAnswer({ content: JSON.stringify(KOREAN), source: SOURCE, locale: 'ko' });
    expect(sut).toEqual({ ...KOREAN, direction: 'bullish' });
  });

  it('keeps a field that is the same in both languages', () => {
    const french = {
      title: 'La SEC approuve les ETF ether au comptant',
      coreSummary: 'La SEC a approuvé la cotation de huit ETF ether au comptant.',
      affectedAssets: ENGLISH.affectedAssets,
      impactLogic: 'L’approbation ouvre l’ether aux comptes-titres et aux conseillers.',
      timeHorizon: 'moyen terme',
      risksAndWatchlist: 'Surveiller les approbations S-1 et les flux de la première semaine.',
    };
    expect(readTranslationAnswer({ content: JSON.stringify(french), source: SOURCE, locale: 'fr' }).affectedAssets).toBe(ENGLISH.affectedAssets);
  });

  it('rejects the English again, whatever the letter case', () => {
    const echo = { ...ENGLISH, title: ENGLISH.title.toUpperCase() };
    expect(translationError(echo, 'fr').message).toContain('answer: the English text, not a translation');
  });

  it('rejects a horizon left as the English code', () => {
    expect(translationError({ ...KOREAN, timeHorizon: 'medium_term' }).message).toContain('answer.timeHorizon: a code, not words of the target language');
  });

  it('rejects prose not written in the script of the locale', () => {
    const english = { ...KOREAN, impactLogic: ENGLISH.impactLogic };
    expect(translationError(english).message).toContain('answer.impactLogic: not written in the script of ko');
    expect(translationError(KOREAN, 'zh-CN').message).toContain('answer.coreSummary: not written in the script of zh-CN');
  });

  it('rejects an empty or junk field', () => {
    expect(translationError({ ...KOREAN, title: '' }).message).toContain('answer.title: empty');
    expect(translationError({ ...KOREAN, risksAndWatchlist: RECORDED_JUNK }).message).toContain('answer.risksAndWatchlist: empty');
  });

  it('does not take a direction from the answer', () => {
    const sut = readTranslationAnswer({ content: JSON.stringify({ ...KOREAN, direction: 'bearish' }), source: SOURCE, locale: 'ko' });
    expect(sut.direction).toBe('bullish');
  });
});
