import { headlineStartingWith, recordedHeadlines } from '../../../../test/support/recorded-news';
import { loadSeedUniverse } from '../../markets/seed/seed-universe';
import { buildCatalog } from '../../../simulator/world/catalog';
import { buildCryptoUniverse } from '../../../simulator/world/crypto-universe';
import { LISTINGS } from '../../../simulator/world/stock-listings';
import { AssetLinker, LinkableAsset, LinkInput } from './asset-linker';

/**
 * The simulator's world as the catalogue: its ~300 coins with their market caps (named coins, a generated long tail
 * that reuses tickers, tokenized stocks), the shipped stock/ETF/FX/futures seed list, the world's crypto stocks, and a
 * few real coins whose names are common words.
 */
function worldCatalogue(): LinkableAsset[] {
  const coins = buildCryptoUniverse(42, buildCatalog(42).underlyings).map((coin) => ({
    symbol: coin.symbol.toUpperCase(),
    name: coin.name,
    type: 'CRYPTO',
    marketCapUsd: coin.process.basePx * coin.scale * coin.circulating,
  }));
  // The seed lists are ordered by size; a falling cap keeps that order.
  const seeded = loadSeedUniverse().map((asset, k) => ({ ...asset, marketCapUsd: asset.type === 'STOCK' || asset.type === 'ETF' ? 4e12 * 0.98 ** k : null }));
  const cryptoStocks = LISTINGS.filter((listing) => ['COIN', 'HOOD', 'CRCL'].includes(listing.symbol)).map((listing) => ({
    symbol: listing.symbol,
    name: listing.longName,
    type: 'STOCK',
    marketCapUsd: 5e10,
  }));
  const commonWords = [
    { symbol: 'ONE', name: 'Harmony', type: 'CRYPTO', marketCapUsd: 1.5e8 },
    { symbol: 'MKR', name: 'Maker', type: 'CRYPTO', marketCapUsd: 1.2e9 },
    { symbol: 'COMP', name: 'Compound', type: 'CRYPTO', marketCapUsd: 4e8 },
    { symbol: 'GAS', name: 'Gas', type: 'CRYPTO', marketCapUsd: 2e8 },
    { symbol: 'ROSE', name: 'Oasis Network', type: 'CRYPTO', marketCapUsd: 1.8e8 },
    { symbol: 'ARK', name: 'Ark', type: 'CRYPTO', marketCapUsd: 6e7 },
    { symbol: 'RON', name: 'Ronin', type: 'CRYPTO', marketCapUsd: 3e8 },
    { symbol: 'CVX', name: 'Convex Finance', type: 'CRYPTO', marketCapUsd: 2e8 },
  ];
  return [...coins, ...seeded, ...cryptoStocks, ...commonWords].map((asset, k) => ({ id: k + 1, ...asset }));
}

const CATALOGUE = worldCatalogue();
const bySymbol = (symbol: string, type?: string) => CATALOGUE.filter((asset) => asset.symbol === symbol && (!type || asset.type === type));
const headline = (title: string, summary = ''): LinkInput => ({ title, summary, categories: [] });

describe(AssetLinker.name, () => {
  const sut = new AssetLinker(CATALOGUE);
  const symbols = (input: LinkInput) => sut.link(input).map((asset) => asset.symbol);

  it('builds from a catalogue of the real size quickly and links in microseconds', () => {
    const filler = Array.from({ length: 1_300 - CATALOGUE.length }, (_, k) => ({
      id: 10_000 + k,
      symbol: `Q${k}X`,
      name: `Quorv ${k} Token`,
      type: 'CRYPTO',
      marketCapUsd: k,
    }));
    const started = performance.now();
    const big = new AssetLinker([...CATALOGUE, ...filler]);
    const built = performance.now() - started;
    const text = headline('Bitcoin and Ether rally as Solana, XRP and $DOGE follow; Apple and Nvidia slip', 'A long summary. '.repeat(50));
    const linking = performance.now();
    for (let k = 0; k < 1_000; k++) big.link(text);
    expect(built).toBeLessThan(1_000);
    expect(performance.now() - linking).toBeLessThan(2_000);
  });

  it.each([
    ['a word that starts with a ticker', 'A new solution for solvency'],
    ['"one of the"', 'It is one of the largest networks'],
    ['an IT department', 'The IT department upgraded its servers'],
    ['AI models', 'New AI models write code'],
    ['an all-time high', 'Stocks hit an all-time high'],
    ['gas fees', 'Users complain about gas fees'],
    ['the near term', 'Analysts see pressure in the near term'],
    ['compound interest and makers', 'Compound interest rewards patient makers'],
    ['capitalised common words next to capitalised words', 'Traders Near Breaking Point as Gas Prices Spike'],
    ['a capitalised common word in a title-case headline', 'Woodworking Week: Meet the Maker'],
    ['a common-word name inside a longer proper noun', 'Cathie Wood’s Ark Invest buys more shares'],
    ['a name after a number', 'the “47 Ronin” director was found guilty'],
    ['shouting', 'BREAKING: ONE WHALE BUYS ALL THE GAS'],
    ['stop-listed upper-case words', 'The SEC and the CEO discuss ETF and NFT rules in the US and EU'],
  ])('links nothing from %s', (_, title) => {
    expect(sut.link(headline(title))).toEqual([]);
  });

  it('links cashtags in any case, (TICKER) and an exchange-prefixed ticker, stop-listed tickers included', () => {
    expect(symbols(headline('$btc and $Eth lead; Harmony (ONE) jumps'))).toEqual(['BTC', 'ETH', 'ONE']);
    expect(sut.link(headline('$one holders vote'))[0]).toMatchObject({ symbol: 'ONE', name: 'Harmony', matchedBy: 'cashtag', matchedText: '$one' });
    expect(sut.link(headline('Robinhood Markets (NASDAQ: HOOD) reports'))[0]).toMatchObject({ symbol: 'HOOD', type: 'STOCK' });
  });

  it('links a bare upper-case ticker as a whole word only', () => {
    expect(symbols(headline('SOL and AVAX rise while SOLUTION tokens fall'))).toEqual(['SOL', 'AVAX']);
    expect(sut.link(headline('Traders buy SOL'))[0]).toMatchObject({ name: 'Solana', matchedBy: 'ticker' });
    expect(symbols(headline('traders buy sol'))).toEqual([]);
  });

  it('links names and aliases case-insensitively as whole words', () => {
    expect(symbols(headline('bitcoin slips while ether and Solana climb; ripple news'))).toEqual(['BTC', 'ETH', 'SOL', 'XRP']);
    expect(sut.link(headline('ether rallies'))[0]).toMatchObject({ symbol: 'ETH', name: 'Ethereum', matchedBy: 'alias', matchedText: 'ether' });
    expect(symbols(headline('Bitcoin’s dominance and Bitcoin Cash'))).toEqual(['BTC', 'BCH']);
  });

  it('links a coin whose name is also a word only when it is capitalised', () => {
    expect(symbols(headline('Avalanche Foundation Expands Grants'))).toEqual(['AVAX']);
    expect(symbols(headline('an avalanche of sell orders'))).toEqual([]);
  });

  it('links a company by its name without the corporate suffix, capitalised', () => {
    expect(sut.link(headline('Apple unveils a new iPhone'))[0]).toMatchObject({ symbol: 'AAPL', name: 'Apple Inc.', type: 'STOCK', matchedBy: 'name' });
    expect(symbols(headline('Microsoft, Nvidia and Meta gain; Google and Facebook too'))).toEqual(['META', 'MSFT', 'NVDA', 'GOOGL']);
    expect(symbols(headline('Johnson & Johnson, Coca-Cola and Amazon.com report'))).toEqual(['JNJ', 'KO', 'AMZN']);
    expect(symbols(headline('an apple a day'))).toEqual([]);
  });

  it('links a common-word name written as a proper noun mid-sentence in running text', () => {
    expect(symbols(headline('Paxos, Fidelity, Ripple, BitGo, and Circle secure US trust bank approvals'))).toEqual(['XRP', 'CRCL']);
    expect(symbols(headline('Governance', 'A proposal by Maker passed, and Compound followed.'))).toEqual(['MKR', 'COMP']);
    expect(symbols(headline('Maker proposal passes'))).toEqual([]);
  });

  it('resolves a ticker several coins share to the largest market cap', () => {
    expect(bySymbol('ETH')).toHaveLength(2);
    expect(bySymbol('UNI')).toHaveLength(2);
    expect(sut.link(headline('ETH and UNI rise; $AXL too'))).toMatchObject([
      { symbol: 'ETH', name: 'Ethereum' },
      { symbol: 'UNI', name: 'Uniswap' },
      { symbol: 'AXL', name: 'Axelar' },
    ]);
  });

  it('resolves a ticker a coin and a stock share by the crypto or stock wording, then by market cap', () => {
    const [convex] = bySymbol('CVX', 'CRYPTO');
    const [chevron] = bySymbol('CVX', 'STOCK');
    expect(sut.link(headline('$CVX jumps as token holders back the protocol'))[0].id).toBe(convex.id);
    expect(sut.link(headline('$CVX shares rise after quarterly earnings'))[0].id).toBe(chevron.id);
    expect(sut.link(headline('CVX moves'))[0].id).toBe(chevron.id);
  });

  it('ranks title matches first and counts mentions', () => {
    const linked = sut.link({ title: 'Ether slips', summary: 'Bitcoin fell; bitcoin miners sold. Ether followed.', categories: ['Solana'] });
    expect(linked.map(({ symbol, foundIn, mentions }) => [symbol, foundIn, mentions])).toEqual([
      ['ETH', 'title', 2],
      ['BTC', 'summary', 2],
      ['SOL', 'categories', 1],
    ]);
  });

  it('links category labels whole, common words included', () => {
    expect(symbols({ title: 'Weekly wrap', summary: '', categories: ['Circle', 'USDT', 'dogecoin', 'AI Market Insights'] })).toEqual(['CRCL', 'USDT', 'DOGE']);
  });

  it('links currency pairs and futures by their market names, never by a futures root', () => {
    expect(symbols(headline('EUR/USD slides as gold prices and crude oil climb'))).toEqual(['EURUSD', 'GC', 'CL']);
    expect(symbols(headline('CL and GC are mentioned bare'))).toEqual([]);
  });

  describe('on the recorded feeds', () => {
    const items = recordedHeadlines();
    const linkOf = (prefix: string) => sut.link(headlineStartingWith(items, prefix)).map((asset) => asset.symbol);

    it('links Bitcoin from every headline that names it', () => {
      const naming = items.filter((item) => /\bbitcoin\b/i.test(item.title));
      expect(naming.length).toBeGreaterThan(15);
      for (const item of naming) expect(sut.link(item).find((asset) => asset.symbol === 'BTC')?.foundIn).toBe('title');
    });

    it('links the assets the headlines are about', () => {
      expect(linkOf('DOT Sinks 2%')).toEqual(['DOT']);
      expect(linkOf('Paxos, Fidelity, Ripple, BitGo, and Circle')).toEqual(['XRP', 'CRCL']);
      expect(linkOf('Florida Seizes $1.5M in Dogecoin')).toEqual(['DOGE', 'PEPE', 'SOL']);
      expect(linkOf('Backed, Chainlink Unveil xBridge')).toEqual(['LINK', 'SOL', 'ETH']);
      expect(linkOf('Cathie Wood’s Ark Invest')).toEqual(['HOOD', 'BTC']);
      expect(linkOf('Bitcoin Plunges Below $90K')).toEqual(['BTC', 'AVGO']);
    });

    it('does not link the common words in them', () => {
      expect(linkOf('Jennifer Garner to Star in Netflix')).toEqual(['NFLX']);
      expect(linkOf('Hollywood Director Guilty')).not.toContain('RON');
      expect(linkOf('Upbit hack puts Binance')).toEqual([]);
      const linked = new Set(items.flatMap((item) => sut.link(item).map((asset) => asset.symbol)));
      for (const word of ['ONE', 'GAS', 'ARK', 'RON', 'MKR', 'COMP']) expect(linked).not.toContain(word);
    });
  });
  describe('press releases, indexes and CJK brackets', () => {
    it('reads a venue citation as the ticker it cites, not as news about the venue', () => {
      const cited = symbols(headline('Meituan Expands BNB Trading', 'BEIJING -- Meituan (HKEX: 3690) and Apple Inc. (Nasdaq: AAPL) today announced a pilot.'));

      expect(cited).toEqual(expect.arrayContaining(['AAPL']));
      expect(cited.filter((symbol) => bySymbol(symbol, 'STOCK').some((asset) => /nasdaq|exchanges/i.test(asset.name)))).toEqual([]);
    });

    it('does not take an index for the company named after it (the S&P 500 is not S&P Global)', () => {
      expect(symbols(headline('S&P 500 futures flat ahead of jobs report & Fed speakers'))).not.toContain('SPGI');
      expect(symbols(headline('S&P Global raises its outlook'))).toContain('SPGI');
    });

    it('links a ticker in full-width brackets, as Chinese text writes it', () => {
      expect(symbols(headline('狗狗币（DOGE）生态初创公司完成3530万美元A轮融资'))).toContain('DOGE');
      expect(symbols(headline('比特币(BTC)价格上涨'))).toContain('BTC');
    });
  });
});
