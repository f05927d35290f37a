/**
 * The word lists the asset linker matches with: data only, so a curator can extend them without touching the rules.
 * Every key is compared in its normalised form (tickers upper-case, words lower-case).
 */

/**
 * Tickers that are also words, abbreviations or market jargon: written bare in upper case they are not taken for a
 * ticker ("AI models", "the SEC", "Crypto UP 7%", "RISK On"). A cashtag ($ONE, (ONE)) still links them.
 * Single-letter tickers (V, T, C) never match bare and need not be listed.
 */
// prettier-ignore
export const STOP_TICKERS: ReadonlySet<string> = new Set([
  // English words that are tickers of coins or stocks.
  'ACT', 'ALL', 'ALT', 'ANY', 'ARE', 'BAT', 'BEAM', 'BEAR', 'BEST', 'BIG', 'BLAST', 'BLUE', 'BOND', 'BULL', 'BUY', 'CAN', 'CASH', 'CAT', 'CORE',
  'COST', 'DEGEN', 'DOG', 'DOGS', 'EARN', 'ERA', 'FLOW', 'FOR', 'FREE', 'FUN', 'GAS', 'GOAT', 'GOLD', 'GREEN', 'HIGH', 'HOLD', 'HOME', 'HOPE',
  'HOT', 'JOE', 'JUST', 'KEY', 'LAYER', 'LIFE', 'LONG', 'LOOKS', 'LOVE', 'LOW', 'MAGIC', 'MAJOR', 'MASK', 'MEME', 'METH', 'MODE', 'MOON', 'MOVE',
  'NEAR', 'NEW', 'NIL', 'NOT', 'NOW', 'ONE', 'OPEN', 'OUT', 'PEOPLE', 'PORTAL', 'PRIME', 'PRO', 'RARE', 'REAL', 'RED', 'RISK', 'ROSE', 'RUN',
  'SAFE', 'SATS', 'SELL', 'SHELL', 'SHORT', 'SHY', 'SKY', 'SOON', 'SPELL', 'STAR', 'SUN', 'SUPER', 'TIME', 'TOP', 'TOWNS', 'TREE', 'TRUE',
  'USUAL', 'VIRTUAL', 'WELL', 'WIN', 'WORLD',
  // Two-letter words and abbreviations.
  'AI', 'AM', 'AR', 'AT', 'BA', 'BE', 'BY', 'DO', 'EU', 'EV', 'GM', 'GN', 'GO', 'GT', 'HD', 'HR', 'ID', 'IF', 'IN', 'IP', 'IR', 'IS', 'IT',
  'KO', 'MA', 'ME', 'ML', 'MS', 'MY', 'NO', 'OF', 'OG', 'OK', 'ON', 'OR', 'PE', 'PG', 'PM', 'PR', 'QE', 'QT', 'SC', 'SO', 'TO', 'TV', 'UK',
  'UN', 'UP', 'US', 'VR', 'WE', 'XR', 'ZK',
  // Institutions, officers, places and market jargon.
  'AML', 'AMEX', 'APR', 'API', 'APY', 'ATH', 'ATL', 'BOE', 'BOJ', 'CBOE', 'CEO', 'CEX', 'CFO', 'CFTC', 'CNN', 'COO', 'CPI', 'CTO', 'DAO', 'DCA',
  'DEFI', 'DEX', 'DOJ', 'DOW', 'DXY', 'ECB', 'EPS', 'ESMA', 'ETF', 'ETN', 'ETP', 'FBI', 'FCA', 'FDIC', 'FDV', 'FED', 'FINRA', 'FOMC', 'FOMO',
  'FTSE', 'FUD', 'GDP', 'GMT', 'HODL', 'IMF', 'INC', 'IPO', 'IRS', 'KYC', 'LFG', 'LLC', 'LTD', 'MEV', 'MICA', 'MOU', 'NASDAQ', 'NDX', 'NFP',
  'NFT', 'NYSE', 'OCC', 'OTC', 'PLC', 'PPI', 'ROI', 'RWA', 'SEC', 'SPX', 'TPS', 'TVL', 'UAE', 'USA', 'VIX', 'WAGMI', 'YOY',
  // Fiat currency codes: "USD" is a currency, not a stablecoin's ticker.
  'AUD', 'CAD', 'CHF', 'CNY', 'EUR', 'GBP', 'HKD', 'INR', 'JPY', 'KRW', 'SGD', 'USD',
  // Another reading dominates: low Earth orbit, satellite navigation, a mantra.
  'LEO', 'GPS', 'OM',
]);

/**
 * Names (and name-derived words) that are common words: "near term", "gas fees", "compound interest", "the graph
 * shows", "Ark Invest". They link only when written as a proper noun mid-sentence in running text (see
 * AssetLinker), or through their ticker, a cashtag, or a longer distinctive name ("NEAR Protocol").
 */
// prettier-ignore
export const GUARDED_NAMES: ReadonlySet<string> = new Set([
  'abbott', 'access', 'across', 'alpha', 'apex', 'arc', 'ark', 'aurora', 'babylon', 'balancer', 'band', 'base', 'based', 'beam',
  'blast', 'block', 'booking', 'bounce', 'brett', 'canon', 'circle', 'civic', 'compound', 'convex', 'cookie', 'copper', 'core', 'corn', 'curve',
  'dash', 'degen',
  'dogs', 'drift', 'echelon', 'echo', 'flare', 'flow', 'frontier', 'fuse', 'gains', 'gala', 'gas', 'gold', 'golem', 'grass', 'gravity',
  'harmony', 'hive', 'hmm', 'hop', 'icon', 'immutable', 'just', 'keep', 'level', 'maker', 'major', 'mantle', 'mantra', 'maple',
  'mask', 'merlin', 'mode', 'movement', 'nano', 'near', 'neo', 'nexus', 'oasis', 'ocean', 'ontology', 'optimism', 'oracle', 'orca', 'orderly',
  'origin', 'perpetual', 'plasma', 'plume', 'portal', 'quant', 'radiant', 'recruit', 'render', 'request', 'ribbon', 'ronin', 'rtx', 'safe',
  'scroll', 'secret', 'silver', 'sky', 'smc', 'sonic', 'spark', 'stacks', 'status', 'stellar', 'story', 'strategy',
  'sun', 'suzuki', 'swarms', 'synapse', 'target', 'tensor', 'the graph', 'the sandbox', 'theta', 'threshold', 'turbo', 'ultra', 'union',
  'usual', 'venus', 'verge', 'vertex', 'waves', 'wheat',
]);

/** Names that are also words but in market news nearly always the asset: they count when capitalised, title case included. */
export const PROPER_NAMES: ReadonlySet<string> = new Set(['avalanche', 'cosmos', 'helium', 'jupiter', 'polygon', 'terra']);

/** Words never linked as a bare name, whatever the catalogue holds: articles, pronouns, prepositions. */
export const NEVER_NAMES: ReadonlySet<string> = new Set(['a', 'an', 'and', 'for', 'in', 'is', 'it', 'of', 'on', 'or', 'the', 'to', 'with']);

/**
 * How a name may be written to count: `free` in any case ("bitcoin"), `proper` with a capital ("Apple", not
 * "apple pie"; PROPER_NAMES), `guarded` as a proper noun in running text only (GUARDED_NAMES).
 */
export type NameLevel = 'free' | 'proper' | 'guarded';

export interface AliasDef {
  alias: string;
  symbol: string;
  /** Restricts the alias to assets of this class when several share the symbol. */
  type?: string;
  level: NameLevel;
}

const crypto = (alias: string, symbol: string): AliasDef => ({ alias, symbol, type: 'CRYPTO', level: 'free' });
const company = (alias: string, symbol: string, level: NameLevel = 'proper'): AliasDef => ({ alias, symbol, type: 'STOCK', level });
const commodity = (alias: string, symbol: string, level: NameLevel = 'free'): AliasDef => ({ alias, symbol, type: 'COMMODITY', level });

/** Everyday names the catalogue does not carry; an alias whose symbol is not listed is skipped. */
export const ALIASES: readonly AliasDef[] = [
  crypto('btc', 'BTC'),
  crypto('ether', 'ETH'),
  crypto('ethereum', 'ETH'),
  crypto('tether', 'USDT'),
  crypto('ripple', 'XRP'),
  crypto('binance coin', 'BNB'),
  crypto('usd coin', 'USDC'),
  crypto('dogecoin', 'DOGE'),
  crypto('polygon', 'POL'),
  crypto('matic', 'POL'),
  crypto('toncoin', 'TON'),
  crypto('cosmos', 'ATOM'),
  crypto('hedera hashgraph', 'HBAR'),
  crypto('stellar lumens', 'XLM'),
  crypto('pyth', 'PYTH'),
  crypto('lido', 'LDO'),
  crypto('makerdao', 'MKR'),
  crypto('world liberty', 'WLFI'),
  crypto('paypal usd', 'PYUSD'),
  crypto('ripple usd', 'RLUSD'),
  crypto('shiba inu', 'SHIB'),
  company('google', 'GOOGL'),
  company('facebook', 'META'),
  company('amazon', 'AMZN'),
  company('exxon', 'XOM'),
  company('exxonmobil', 'XOM'),
  company('jpmorgan', 'JPM'),
  company('jp morgan', 'JPM'),
  company('goldman', 'GS'),
  company('schwab', 'SCHW'),
  company('berkshire', 'BRK-B'),
  company('disney', 'DIS'),
  company('costco', 'COST'),
  company('coinbase', 'COIN'),
  company('robinhood', 'HOOD'),
  company('microstrategy', 'MSTR'),
  company('strategy', 'MSTR', 'guarded'),
  company('circle', 'CRCL', 'guarded'),
  company('tsmc', 'TSM'),
  company('hkex', '0388'),
  company('icbc', '1398'),
  company('mufg', '8306'),
  company('ntt', '9432'),
  company('kepco', '015760'),
  commodity('spot gold', 'GC'),
  commodity('gold price', 'GC'),
  commodity('gold prices', 'GC'),
  commodity('bullion', 'GC'),
  commodity('silver price', 'SI'),
  commodity('silver prices', 'SI'),
  commodity('crude oil', 'CL'),
  commodity('oil prices', 'CL'),
  commodity('wti', 'CL', 'proper'),
  commodity('brent', 'BZ', 'proper'),
];

/** Exchange names written before a ticker in press releases: "(NASDAQ: COIN)", "(NYSE:TSLA)", "(HKEX: 0700)". */
export const EXCHANGE_PREFIXES: ReadonlySet<string> = new Set([
  'nasdaq',
  'nyse',
  'amex',
  'nysearca',
  'cboe',
  'otc',
  'otcqx',
  'hkex',
  'sehk',
  'tse',
  'tyo',
  'krx',
]);

/** Words that say an item is about crypto, to pick the coin when a coin and a stock share a ticker. */
// prettier-ignore
export const CRYPTO_CONTEXT: ReadonlySet<string> = new Set([
  'airdrop', 'altcoin', 'altcoins', 'blockchain', 'coin', 'coins', 'crypto', 'cryptocurrency', 'defi', 'dex', 'memecoin', 'memecoins',
  'onchain', 'protocol', 'stablecoin', 'staking', 'token', 'tokens', 'wallet', 'web3',
]);

/** Words that say an item is about a listed company, to pick the stock when a coin and a stock share a ticker. */
// prettier-ignore
export const STOCK_CONTEXT: ReadonlySet<string> = new Set([
  'analyst', 'analysts', 'dividend', 'earnings', 'equity', 'guidance', 'ipo', 'nasdaq', 'nyse', 'quarter', 'quarterly', 'revenue', 'share',
  'shareholders', 'shares', 'stock', 'stocks',
]);

/** Trailing words of company names that are not how news names the company ("Apple Inc." is "Apple"). */
// prettier-ignore
export const CORPORATE_SUFFIXES: ReadonlySet<string> = new Set([
  '&', 'ag', 'and', 'co', 'company', 'companies', 'corp', 'corporation', 'group', 'holding', 'holdings', 'inc', 'incorporated', 'limited', 'llc', 'ltd',
  'nv', 'n.v', 'plc', 'sa', 's.a', 'se', 'class', 'a', 'b', 'c', 'new', 'the', 'etf', 'trust', 'fund', 'shares', 'series', '1', 'futures',
]);

/** Trailing descriptive words a company is usually named without ("Meta Platforms" is "Meta"); stripped once, after the suffixes. */
// prettier-ignore
export const DESCRIPTIVE_SUFFIXES: ReadonlySet<string> = new Set([
  'platforms', 'global', 'markets', 'technologies', 'technology', 'motor', 'electronics', 'internet', 'systems', 'international', 'wholesale',
  'financial', 'communications', 'laboratories', 'industries', 'scientific', 'pharmaceutical', 'aerospace',
]);

/** Trailing words of coin names ("NEAR Protocol", "Pyth Network"): the bare remainder is a guarded name. */
export const CRYPTO_SUFFIXES: ReadonlySet<string> = new Set(['protocol', 'network', 'token', 'coin', 'dao', 'finance', 'chain']);
