import Sentiment from 'sentiment';
import AFINN from 'sentiment/languages/en/labels.json';
import { FINANCE_LEXICON, toLexiconText } from './finance-lexicon';

describe('FINANCE_LEXICON', () => {
  const afinn: Readonly<Record<string, number>> = AFINN;

  it('scores in AFINN integers from -5 to 5', () => {
    for (const [word, score] of Object.entries(FINANCE_LEXICON)) {
      expect({ word, integer: Number.isInteger(score), inRange: score >= -5 && score <= 5 }).toEqual({ word, integer: true, inRange: true });
    }
  });

  it('fixes the finance words AFINN misses or misreads', () => {
    for (const word of ['tanks', 'plunge', 'outflows', 'bearish', 'liquidated', 'delist']) {
      expect(afinn[word] ?? 0).toBeGreaterThanOrEqual(0);
      expect(FINANCE_LEXICON[word]).toBeLessThan(0);
    }
    for (const word of ['surge', 'rally', 'soar', 'inflows', 'bullish']) {
      expect(afinn[word] ?? 0).toBeLessThanOrEqual(0);
      expect(FINANCE_LEXICON[word]).toBeGreaterThan(0);
    }
    for (const word of ['support', 'trust', 'greed']) {
      expect(afinn[word]).not.toBe(0);
      expect(FINANCE_LEXICON[word]).toBe(0);
    }
  });

  it('joins the phrases it scores into single tokens', () => {
    expect(toLexiconText('Bitcoin Hits All-Time High as Risk On Mood Returns')).toBe('bitcoin hits all-time-high as risk-on mood returns');
    expect(toLexiconText('Stocks at record lows after sell off; Fear & Greed index in free fall')).toBe(
      'stocks at record-low after sell-off; fear-and-greed index in free-fall',
    );
    expect(toLexiconText('Shares beat expectations')).toBe('shares beats-estimates');
  });

  it('drops quotes around words but keeps apostrophes inside them', () => {
    expect(toLexiconText('Exec calls it a ‘smart’ move, doesn’t “panic”')).toBe('exec calls it a  smart  move, doesn\'t "panic"');
  });

  it('turns a headline AFINN reads as good news into a bad one', () => {
    const text = 'First Republic Bank Tanks 50% Despite $30 Billion Support From Big Banks';
    const overlaid = toLexiconText(text)
      .split(/\s+/)
      .reduce((sum, word) => sum + (word in FINANCE_LEXICON ? FINANCE_LEXICON[word] : (afinn[word] ?? 0)), 0);
    expect(new Sentiment().analyze(text).score).toBeGreaterThan(0);
    expect(overlaid).toBeLessThan(0);
  });
});
