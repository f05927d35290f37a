/** The topics an item can be tagged with, in the order they are listed (the `concepts` of a news item). */
export const NEWS_CONCEPTS = [
  'etf',
  'regulation',
  'lawsuit',
  'hack',
  'earnings',
  'listing',
  'partnership',
  'funding',
  'acquisition',
  'ipo',
  'macro',
  'stablecoin',
  'defi',
  'nft',
  'mining',
  'airdrop',
  'layoffs',
  'upgrade',
  'tokenization',
  'treasury',
  'liquidations',
  'prediction-markets',
] as const;
export type NewsConcept = (typeof NEWS_CONCEPTS)[number];

export interface ConceptInput {
  title: string;
  summary: string;
  categories: readonly string[];
}

/**
 * Cue words and phrases per topic, as regular-expression fragments matched as whole words over the title, summary
 * and category labels (hyphens read as spaces). A cue in lower case matches any case; one with capitals only as
 * written, so "SEC" is the regulator and "sec" is not, "Fed" is the central bank and "fed up" is not.
 */
// prettier-ignore
const CUES: Readonly<Record<NewsConcept, readonly string[]>> = {
  etf: ['etfs?', 'etps?', 'exchange traded (?:funds?|products?)', 'spot (?:bitcoin|ether|ethereum|solana|xrp) funds?'],
  regulation: [
    'regulat\\w*', 'SEC', 'CFTC', 'OCC', 'FCA', 'ESMA', 'MiCA', 'FINMA', 'legislat\\w*', 'lawmakers?', 'bill', 'senate', 'congress\\w*',
    'compliance', 'licen[cs]es?', 'licensed', 'licensing', 'charters?', 'oversight', 'supervis\\w*', 'no action letters?', 'sanctions?',
    'crackdown', 'bans?', 'banned', 'rules', 'policymak\\w*', 'executive order', 'watchdogs?',
  ],
  lawsuit: [
    'lawsuits?', 'sues?', 'sued', 'suing', 'class action', 'indict\\w*', 'charged with', 'court', 'judge', 'sentenc\\w*', 'guilty', 'prosecut\\w*',
    'plea', 'trial', 'settles? with', 'fraud', 'subpoena\\w*', 'arrest\\w*', 'seiz(?:e|es|ed|ing|ure)', 'DOJ', 'DoJ', 'department of justice',
  ],
  hack: [
    'hack(?:s|ed|er|ers|ing)?', 'exploit\\w*', 'drain(?:s|ed|er|ing)?', 'breach\\w*', 'stolen', 'thefts?', 'heists?', 'attackers?', 'phishing', 'rug pulls?',
    'compromised', 'vulnerabilit\\w*', 'cyberattacks?', 'wrench attacks?',
  ],
  earnings: [
    'earnings (?:reports?|calls?|season|beats?|miss(?:es)?|results|per share|surprise|growth|date)',
    '(?:quarterly|annual|q[1-4]|first quarter|second quarter|third quarter|fourth quarter|record) (?:earnings|results|revenue|profit)',
    '(?:reports?|posts?|posted|reported) (?:earnings|results)', 'EPS', 'net income', 'profit warning', 'guidance',
    '(?:beats?|miss(?:es)?|missed|topped|tops) (?:estimates|expectations|forecasts)',
  ],
  listing: ['listings?', 'lists', 'to list', 'will list', 'delist\\w*', 'trading pairs?'],
  partnership: [
    'partner(?:s|ed|ing|ship|ships)?', 'teams? (?:up )?with', 'team up', 'tie up', 'collaborat\\w*', 'joins? forces', 'alliance', 'integrat\\w*',
    'MOU', 'memorandum of understanding',
  ],
  funding: [
    'rais(?:e|es|ed|ing) (?:\\$|usd |€)\\d[\\d.,]*\\s?(?:[kmb]n?|million|billion)?', 'funding rounds?', 'seed rounds?', 'series [a-f] (?:round|funding)', 'fundrais\\w*', 'venture capital',
    'valuation', 'pre ?sales?', 'presales?', 'private investments?', 'strategic investments?', 'investment rounds?',
  ],
  acquisition: [
    'acqui(?:re|res|red|ring|sition|sitions)', 'takeovers?', 'take over', 'buyout', 'merg(?:e|es|ed|er|ers|ing)', '(?:offers?|agrees?|deal|bids?) to buy',
    'bid for',
  ],
  ipo: ['ipos?', 'initial public offerings?', 'go(?:es|ing)? public', 'direct listing', 'spacs?'],
  macro: [
    'Fed', 'Federal Reserve', 'FOMC', 'rate (?:cuts?|hikes?|decisions?)', 'interest rates?', 'inflation', 'CPI', 'PPI', 'jobs (?:data|report)',
    'payrolls', 'unemployment', 'GDP', 'recession', '(?:treasury|bond) yields?', 'tariffs?', 'Powell', 'central banks?', 'ECB', 'BOJ',
    'dollar index', 'DXY', 'monetary policy', 'macro\\w*',
  ],
  stablecoin: ['stablecoins?', 'USDT', 'USDC', 'PYUSD', 'RLUSD', 'USD1', 'USDe', 'DAI', 'tether', 'depeg\\w*', '(?:dollar|euro|ringgit) pegged'],
  defi: [
    'defi', 'decentralized finance', 'dex(?:es)?', 'decentralized exchanges?', 'tvl', 'total value locked', 'lending protocols?', 'liquidity pools?',
    'yield farming', 'restak\\w*', 'liquid staking',
  ],
  nft: ['nfts?', 'non fungible', 'ordinals', 'inscriptions', 'digital collectibles?'],
  mining: ['miners?', 'mining', 'hashrate', 'hash rate', 'hashprice', 'block rewards?', 'halving', 'asics?', 'difficulty adjustment'],
  airdrop: ['airdrop\\w*', 'token claims?'],
  layoffs: [
    'layoffs?', 'lay(?:s|ing)? off', 'laid off', 'job cuts', 'cuts? jobs', 'cutting jobs', 'workforce (?:reduction|cuts)', 'headcount', 'redundanc\\w*',
    'downsiz\\w*',
  ],
  upgrade: ['upgrades?', 'upgraded', '(?:hard|soft) forks?', 'mainnet', 'testnet', 'amendments?', 'Fusaka', 'Pectra', 'Dencun', 'Firedancer'],
  tokenization: ['tokeni[sz]\\w*', 'real world assets?', 'rwas?'],
  treasury: [
    '(?:bitcoin|btc|ether|eth|ethereum|solana|sol|xrp|crypto|digital asset) treasur(?:y|ies)', 'treasury (?:compan\\w*|firms?|strateg\\w*)',
    '(?:strategic )?bitcoin reserves?', 'strategic reserves?',
  ],
  liquidations: ['liquidat\\w*', '(?:short|long) squeeze', 'margin calls?'],
  'prediction-markets': ['prediction markets?', 'polymarket', 'kalshi', 'event contracts?'],
};

/** Whole words only: no letter or digit on either side. */
const wordsOf = (cues: readonly string[], flags: string): RegExp | null =>
  cues.length === 0 ? null : new RegExp(`(?<![\\p{L}\\p{N}])(?:${cues.join('|')})(?![\\p{L}\\p{N}])`, flags);

const hasCapitals = (cue: string): boolean => /[A-Z]/.test(cue);
const MATCHERS = NEWS_CONCEPTS.map((concept) => ({
  concept,
  anyCase: wordsOf(
    CUES[concept].filter((cue) => !hasCapitals(cue)),
    'iu',
  ),
  asWritten: wordsOf(CUES[concept].filter(hasCapitals), 'u'),
}));

/** The item's topics, in NEWS_CONCEPTS order, each at most once. */
export function detectConcepts({ title, summary, categories }: ConceptInput): NewsConcept[] {
  const text = [title, summary, ...categories]
    .join('\n')
    .replace(/[’‘]/g, "'")
    .replace(/[-‐‑–—]/g, ' ');
  return MATCHERS.filter(({ anyCase, asWritten }) => anyCase?.test(text) || asWritten?.test(text)).map(({ concept }) => concept);
}
