import { parseFeed } from '@rowanmanning/feed-parser';
import Sentiment from 'sentiment';
import { vendorFixtureText } from '../../../../test/support/vendor-fixtures';
import { AnalyseNewsParams, DIRECTIONS, EnglishAnalysis, LinkedAssetRef, TIME_HORIZONS } from '../../../providers/analysis-provider';
import { readAnalysisAnswer } from '../../../providers/openai/analysis-answer.validation';
import { NAMED_COINS } from '../../../simulator/world/crypto-coins';
import { loadSeedUniverse } from '../../markets/seed/seed-universe';
import { AssetLinker } from './asset-linker';
import { BuiltinAnalyser } from './builtin-analyser';
import { detectConcepts } from './concepts';

const BTC: LinkedAssetRef = { symbol: 'BTC', name: 'Bitcoin', type: 'CRYPTO' };
const ETH: LinkedAssetRef = { symbol: 'ETH', name: 'Ethereum', type: 'CRYPTO' };
const item = (title: string, summary = '', more: Partial<AnalyseNewsParams> = {}): AnalyseNewsParams => ({ title, summary, assets: [], concepts: [], ...more });

describe(BuiltinAnalyser.name, () => {
  const sut = new BuiltinAnalyser();
  /** The checks every LLM answer must pass (non-empty fields, enums, sentiment range and sign), applied to ours. */
  const passesAnswerChecks = (analysis: EnglishAnalysis) => expect(readAnalysisAnswer(JSON.stringify(analysis))).toEqual(analysis);

  it('is the offline, English-only analyser', async () => {
    expect({ name: sut.name, model: sut.model, translates: sut.translates }).toEqual({ name: 'builtin', model: 'builtin-lexicon#1', translates: false });
    await expect(sut.translate()).rejects.toThrow(/English only/);
  });

  it('writes every field, within the limits an LLM answer must keep', async () => {
    const analysis = await sut.analyse(
      item('Bitcoin surges to a record high', 'Spot ETF inflows hit a record. Traders expect more.', { assets: [BTC], concepts: ['etf'] }),
    );
    passesAnswerChecks(analysis);
    expect(analysis).toMatchObject({ direction: 'bullish', affectedAssets: 'BTC (Bitcoin)', timeHorizon: 'short_term' });
  });

  it('reads a "tanks" headline bearish where plain AFINN does not', async () => {
    const title = 'First Republic Bank Tanks 50% Despite $30 Billion Support From Big Banks';
    expect(new Sentiment().analyze(title).comparative).toBeGreaterThan(0);
    const analysis = await sut.analyse(item(title));
    expect(analysis.sentiment).toBeLessThan(-0.05);
    expect(analysis.direction).toBe('bearish');
    expect(analysis.impactLogic).toContain('"tanks"');
  });

  it.each([
    ['bullish', 'Ether rallies as ETF approval lifts inflows'],
    ['bearish', 'Exchange hacked; $40M drained in exploit'],
    ['bearish', 'Bitcoin plunges as liquidations mount'],
    ['neutral', 'Exchange publishes its monthly report'],
    ['bearish', 'Analysts say the outlook is not bullish'],
  ])('reads %s wording: "%s"', async (direction, title) => {
    expect((await sut.analyse(item(title))).direction).toBe(direction);
  });

  it('keeps the sentiment within -1..1, rounded to 3 decimals, its sign agreeing with the direction', async () => {
    for (const title of ['Crash crash crash', 'Surge surge soar rally', 'Hack', 'Bitcoin is not bullish']) {
      const { sentiment, direction } = await sut.analyse(item(title));
      expect(Math.abs(sentiment)).toBeLessThanOrEqual(1);
      expect(Math.round(sentiment * 1000) / 1000).toBe(sentiment);
      expect(direction).toBe(sentiment > 0.05 ? 'bullish' : sentiment < -0.05 ? 'bearish' : 'neutral');
    }
  });

  it('lists the linked assets, or says none is named', async () => {
    expect((await sut.analyse(item('News', '', { assets: [BTC, ETH] }))).affectedAssets).toBe('BTC (Bitcoin), ETH (Ethereum)');
    expect((await sut.analyse(item('News'))).affectedAssets).toBe('No specific asset; broad market');
    const many = Array.from({ length: 10 }, (_, k) => ({ symbol: `C${k}`, name: `Coin ${k}`, type: 'CRYPTO' }));
    expect((await sut.analyse(item('News', '', { assets: many }))).affectedAssets).toMatch(/C7 \(Coin 7\) and 2 more$/);
  });

  it('cleans the title and takes the summary lead, or the title when there is no summary', async () => {
    const summary = 'U.S. Bank tested a stablecoin on Stellar. It went well. A third sentence adds detail.';
    const analysis = await sut.analyse(item('  <b>Stablecoin</b>   test\n', summary));
    expect(analysis.title).toBe('Stablecoin test');
    expect(analysis.coreSummary).toBe('U.S. Bank tested a stablecoin on Stellar. It went well.');
    expect((await sut.analyse(item('Only a headline here'))).coreSummary).toBe('Only a headline here');
  });

  it('explains the score from its cue words, topics and assets', async () => {
    const { impactLogic, risksAndWatchlist } = await sut.analyse(item('Exchange hacked as bitcoin plunges', '', { assets: [BTC], concepts: ['hack'] }));
    expect(impactLogic).toMatch(
      /^Read as bearish \(lexicon score -[\d.]+\) from the wording: negative cues "hacked", "plunges"\. Topics: hack\. Applies to BTC\.$/,
    );
    expect(risksAndWatchlist).toMatch(/^Watch fund recovery.*Watch: BTC\.$/);
    const flat = await sut.analyse(item('Exchange publishes its monthly report'));
    expect(flat.impactLogic).toMatch(/read as neutral\. No single asset is named/);
  });

  it.each([
    ['intraday', 'Bitcoin swings today', []],
    ['intraday', 'Over $1B liquidated', []],
    ['long_term', 'Bank sets a roadmap to tokenize funds by 2030', []],
    ['medium_term', 'Coinbase earnings due next quarter', []],
    ['long_term', 'Senators weigh the bill', ['regulation']],
    ['short_term', 'Token jumps', []],
  ])('dates the effect %s: "%s"', async (horizon, title, concepts) => {
    expect((await sut.analyse(item(title, '', { concepts }))).timeHorizon).toBe(horizon);
  });

  it('answers the same for the same item and leaves the package’s English table alone', async () => {
    const params = item('Bitcoin tanks while support holds', 'Traders see outflows.', { assets: [BTC], concepts: ['etf'] });
    expect(await sut.analyse(params)).toEqual(await sut.analyse(params));
    expect(new Sentiment().analyze('tanks support outflows').score).toBe(2);
  });

  it('stops when the caller has stopped waiting', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    await expect(sut.analyse(item('Bitcoin', '', { signal: controller.signal }))).rejects.toThrow('stopped');
  });

  describe('on the recorded feeds, after the linker and the concept detector', () => {
    const catalogue = [
      ...NAMED_COINS.map((coin, k) => ({ symbol: coin.symbol.toUpperCase(), name: coin.name, type: 'CRYPTO', marketCapUsd: 2e12 * 0.8 ** k })),
      ...loadSeedUniverse().map((asset, k) => ({ ...asset, marketCapUsd: 4e12 * 0.98 ** k })),
    ].map((asset, k) => ({ id: k + 1, ...asset }));
    const linker = new AssetLinker(catalogue);
    const items = ['coindesk', 'cointelegraph', 'decrypt', 'theblock'].flatMap((feed) =>
      parseFeed(vendorFixtureText('news', `${feed}.rss.xml`)).items.map((entry) => {
        const input = {
          title: entry.title ?? '',
          summary: (entry.description ?? '').replace(/<[^>]*>/g, ' '),
          categories: entry.categories.flatMap((category) => category.label ?? []),
        };
        return item(input.title, input.summary, { assets: linker.link(input), concepts: detectConcepts(input) });
      }),
    );
    const analysisOf = (prefix: string) => {
      const found = items.find((candidate) => candidate.title.startsWith(prefix));
      if (!found) throw new Error(`no recorded headline starts with "${prefix}"`);
      return sut.analyse(found);
    };

    it('analyses every item within the answer checks, the same way twice', async () => {
      expect(items.length).toBeGreaterThan(100);
      for (const params of items) {
        const analysis = await sut.analyse(params);
        passesAnswerChecks(analysis);
        expect(DIRECTIONS).toContain(analysis.direction);
        expect(TIME_HORIZONS).toContain(analysis.timeHorizon);
        expect(await sut.analyse(params)).toEqual(analysis);
      }
    });

    it('reads the recorded headlines the way a reader would', async () => {
      expect(await analysisOf('Bitcoin Plunges Below $90K')).toMatchObject({ direction: 'bearish', affectedAssets: expect.stringMatching(/^BTC \(Bitcoin\)/) });
      expect(await analysisOf('Upbit hack puts Binance')).toMatchObject({
        direction: 'bearish',
        risksAndWatchlist: expect.stringMatching(/^Watch fund recovery/),
      });
      expect(await analysisOf('Bitcoin bounces on Fed rate cut')).toMatchObject({ direction: 'bullish' });
      expect(await analysisOf('Do Kwon Sentenced to 15 Years')).toMatchObject({ direction: 'bearish', timeHorizon: 'long_term' });
      expect(await analysisOf('Paxos, Fidelity, Ripple, BitGo, and Circle')).toMatchObject({ direction: 'bullish' });
    });

    it('reads every hack or exploit headline bearish', async () => {
      const hacks = items.filter((params) => /\b(?:hack|exploit)/i.test(params.title));
      expect(hacks.length).toBeGreaterThan(0);
      for (const params of hacks) {
        expect(params.concepts).toContain('hack');
        expect((await sut.analyse(params)).sentiment).toBeLessThan(0);
      }
    });
  });
});
