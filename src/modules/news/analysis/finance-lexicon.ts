/**
 * A markets overlay on AFINN-165 (the `sentiment` package's English labels), in AFINN's integer scale of -5..5.
 * AFINN is general-purpose: it has no "tanks", "plunges", "outflows" or "bullish", scores "support" (a chart level)
 * and "trust" (a bank charter) as praise, and "greed" (the Fear & Greed index) as blame. Entries here replace
 * AFINN's; a 0 removes a word's score.
 */
// prettier-ignore
export const FINANCE_LEXICON: Readonly<Record<string, number>> = {
  // Prices falling, and the flows and positioning behind it.
  tank: -3, tanks: -3, tanked: -3, tanking: -3, plunge: -3, plunges: -3, plunged: -3, plunging: -3,
  plummet: -3, plummets: -3, plummeted: -3, plummeting: -3, crash: -3, crashes: -3, crashed: -3, crashing: -3,
  slump: -2, slumps: -2, slumped: -2, tumble: -2, tumbles: -2, tumbled: -2, tumbling: -2, sink: -2, sinks: -2, sank: -2, sinking: -2,
  slide: -2, slides: -2, slid: -2, sliding: -2, drops: -1, dropped: -1, dropping: -1, fall: -1, falls: -1, fell: -1, falling: -1,
  dip: -1, dips: -1, dipped: -1, decline: -1, declines: -1, declined: -1, declining: -1, slips: -1, slipped: -1, retreat: -1,
  retreats: -1, retreated: -1, erased: -1, wobbles: -1, downturn: -2, correction: -1, capitulation: -3, 'sell-off': -2, 'free-fall': -3,
  bearish: -2, bear: -1, bears: -1, 'bear-market': -2, 'bear-flag': -2, outflow: -2, outflows: -2, liquidated: -2, liquidation: -2,
  liquidations: -2, underperforms: -2, underperformed: -2, downgrade: -2, downgrades: -2, downgraded: -2, 'risk-off': -2,
  'record-low': -3, 'all-time-low': -3, 'misses-estimates': -2,
  // Security incidents, enforcement and distress.
  hack: -3, hacks: -3, hacked: -3, hacker: -3, hackers: -3, exploit: -3, exploits: -3, exploited: -3, drained: -3, drain: -2,
  breached: -2, stolen: -3, theft: -3, heist: -3, attacker: -2, attackers: -2, phishing: -2, 'rug-pull': -4, delist: -2, delists: -2,
  delisted: -2, delisting: -2, lawsuits: -2, sues: -2, suing: -2, indicts: -2, indictment: -2, subpoena: -2, probe: -1, investigation: -1,
  crackdown: -2, bans: -2, halt: -2, halts: -2, halted: -2, suspends: -1, sanctions: -2, seize: -2, seizes: -2, seized: -2,
  seizure: -2, insolvency: -3, insolvent: -3, depeg: -3, depegs: -3, depegged: -3, layoffs: -2, 'lay-offs': -2, 'job-cuts': -2,
  misses: -2,
  // Prices rising, flows in, approvals and deals.
  surge: 3, surges: 3, surged: 3, surging: 3, soar: 3, soars: 3, soared: 3, soaring: 3, rally: 2, rallies: 2, rallied: 2, rallying: 2,
  jump: 2, jumps: 2, jumped: 2, climb: 1, climbs: 1, climbed: 1, rising: 1, risen: 1, rebound: 2, rebounds: 2, rebounded: 2,
  bounce: 1, bounces: 1, bounced: 1, recovers: 1, recovered: 1, outperform: 2, outperforms: 2, outperformed: 2, bullish: 2, bull: 1,
  bulls: 1, 'bull-market': 2, 'risk-on': 2, inflow: 2, inflows: 2, approvals: 2, greenlight: 2, greenlights: 2, greenlit: 2,
  partnership: 1, partnerships: 1, partners: 1, beats: 2, 'beats-estimates': 2, breakout: 2, milestone: 1, upgrade: 1, upgrades: 1,
  upgraded: 2, buyback: 2, buybacks: 2, accumulating: 1, accumulation: 1, adoption: 1, oversubscribed: 2, upside: 2, boosted: 2,
  'record-high': 3, 'all-time-high': 3, 'short-squeeze': 1,
  // Neutral in market news whatever AFINN says: chart levels, charters, index names, fee and rate words.
  support: 0, trust: 0, greed: 0, 'fear-and-greed': 0, interest: 0, share: 0, shares: 0, free: 0, like: 0, demand: 0, crude: 0,
  gross: 0, cut: 0, cuts: 0, 'rate-decision': 0, top: 0, leading: 0, justice: 0, stable: 0, 'no-action': 0, 'price-target': 0,
  // Milder than AFINN in this domain: "risk" is everywhere, "win" is an approval, not a triumph.
  risk: -1, win: 2, wins: 2,
};

/** Multi-word expressions joined into the single tokens FINANCE_LEXICON scores ("record high" -> "record-high"). */
const PHRASES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\ball[\s-]time[\s-]highs?\b/g, 'all-time-high'],
  [/\ball[\s-]time[\s-]lows?\b/g, 'all-time-low'],
  [/\brecord[\s-]highs?\b/g, 'record-high'],
  [/\brecord[\s-]lows?\b/g, 'record-low'],
  [/\bsell[\s-]?offs?\b/g, 'sell-off'],
  [/\bfree[\s-]?fall\b/g, 'free-fall'],
  [/\brisk[\s-]on\b/g, 'risk-on'],
  [/\brisk[\s-]off\b/g, 'risk-off'],
  [/\bbull[\s-]market\b/g, 'bull-market'],
  [/\bbear[\s-]market\b/g, 'bear-market'],
  [/\bbear[\s-]flag\b/g, 'bear-flag'],
  [/\bshort[\s-]squeeze\b/g, 'short-squeeze'],
  [/\brug[\s-]?pulls?\b/g, 'rug-pull'],
  [/\brate[\s-](?:cut|hike)s?\b/g, 'rate-decision'],
  [/\bjob[\s-]cuts\b/g, 'job-cuts'],
  [/\b(?:laid|lays?)[\s-]off\b/g, 'lay-offs'],
  [/\bfear (?:&|and) greed\b/g, 'fear-and-greed'],
  [/\bno[\s-]action\b/g, 'no-action'],
  [/\bprice[\s-]targets?\b/g, 'price-target'],
  [/\b(?:beats?|tops?|topped) (?:estimates|expectations|forecasts)\b/g, 'beats-estimates'],
  [/\bmiss(?:es|ed)? (?:estimates|expectations|forecasts)\b/g, 'misses-estimates'],
];

/**
 * Text as the lexicon reads it: lower case, typographic quotes and dashes made plain, quotes around words dropped
 * (the `sentiment` tokenizer keeps them, so "'smart'" would miss "smart"), and the phrases above joined.
 */
export function toLexiconText(text: string): string {
  let plain = text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[—–]/g, ' ')
    .replace(/(?<!\p{L})'|'(?!\p{L})/gu, ' ');
  for (const [pattern, token] of PHRASES) plain = plain.replace(pattern, token);
  return plain;
}
