import { headlineStartingWith, recordedHeadlines } from '../../../../test/support/recorded-news';
import { ConceptInput, detectConcepts, NEWS_CONCEPTS } from './concepts';

const headline = (title: string, summary = '', categories: string[] = []): ConceptInput => ({ title, summary, categories });

describe(detectConcepts.name, () => {
  const sut = detectConcepts;

  it('lists lower-case slugs, each once', () => {
    expect(new Set(NEWS_CONCEPTS).size).toBe(NEWS_CONCEPTS.length);
    for (const concept of NEWS_CONCEPTS) expect(concept).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });

  it.each([
    ['etf', 'Spot Bitcoin ETFs see record inflows'],
    ['regulation', 'SEC delays ruling as lawmakers debate MiCA-style rules'],
    ['lawsuit', 'Exchange sued by customers in class action'],
    ['hack', 'Bridge drained of $40M in exploit'],
    ['hack', 'Exchange says hot wallet was hacked'],
    ['earnings', 'Coinbase beats estimates in quarterly results'],
    ['listing', 'Binance will list the token; Kraken delists another'],
    ['partnership', 'Visa teams up with Solana developer'],
    ['funding', 'Startup raises $25 million in seed round'],
    ['acquisition', 'Stripe to acquire wallet maker'],
    ['ipo', 'Circle files for initial public offering'],
    ['macro', 'Fed holds rates as CPI cools'],
    ['stablecoin', 'USDC supply grows as stablecoin market hits record'],
    ['defi', 'DeFi lending protocols see TVL rise'],
    ['nft', 'NFT sales slump'],
    ['mining', 'Bitcoin miners face hashrate squeeze'],
    ['airdrop', 'Protocol airdrops tokens to early users'],
    ['layoffs', 'Exchange lays off 20% of staff'],
    ['upgrade', 'Ethereum hard fork goes live on mainnet'],
    ['tokenization', 'BlackRock tokenizes a money-market fund'],
    ['treasury', 'Bitcoin treasury companies keep buying'],
    ['liquidations', 'Over $1B liquidated as longs get squeezed'],
    ['prediction-markets', 'Polymarket volume soars'],
  ])('finds %s in "%s"', (concept, title) => {
    expect(sut(headline(title))).toContain(concept);
  });

  it('matches upper-case cues only as written', () => {
    expect(sut(headline('The SEC and the Fed'))).toEqual(['regulation', 'macro']);
    expect(sut(headline('Ten sec later, traders were fed up'))).toEqual([]);
  });

  it('matches whole words only', () => {
    expect(sut(headline('A shackled economy, unlisted rewards and a hackathon'))).toEqual([]);
  });

  it('reads the summary and the category labels too, in NEWS_CONCEPTS order, once each', () => {
    expect(sut(headline('Weekly wrap', 'Hackers stole funds; another hack followed.', ['Regulation', 'Stablecoins']))).toEqual([
      'regulation',
      'hack',
      'stablecoin',
    ]);
  });

  it('finds no topic in plain text', () => {
    expect(sut(headline('A quiet day', 'Nothing much happened.'))).toEqual([]);
  });

  describe('on the recorded feeds', () => {
    const items = recordedHeadlines();
    const conceptsOf = (prefix: string) => sut(headlineStartingWith(items, prefix));

    it('tags every headline that says hack or exploit as a hack', () => {
      const hacks = items.filter((item) => /\b(?:hack|exploit)/i.test(item.title));
      expect(hacks.length).toBeGreaterThan(0);
      for (const item of hacks) expect(sut(item)).toContain('hack');
    });

    it('tags the recorded headlines with their topics', () => {
      expect(conceptsOf('Fogo cancels $20 million pre-sale')).toEqual(expect.arrayContaining(['funding', 'airdrop']));
      expect(conceptsOf('Bitcoin bounces on Fed rate cut')).toContain('macro');
      expect(conceptsOf('XRP ETFs near $1 Billion')).toContain('etf');
      expect(conceptsOf('Lucky solo bitcoin miner')).toContain('mining');
      expect(conceptsOf('Do Kwon Sentenced to 15 Years')).toContain('lawsuit');
      expect(conceptsOf('Crypto UP 7-10%')).toContain('funding');
      expect(conceptsOf('Phantom taps Kalshi')).toContain('prediction-markets');
      expect(conceptsOf('Save the Children’s new Bitcoin Fund')).toEqual([]);
    });

    it('only ever returns listed concepts, in their order', () => {
      for (const item of items) {
        const found = sut(item);
        expect(found).toEqual(NEWS_CONCEPTS.filter((concept) => found.includes(concept)));
      }
    });
  });
});
