import { hash2, mulberry32 } from '../world/prng';
import { paddedCik, SecRegistrant } from '../world/sec-registrants';

const DAY_MS = 86_400_000;
/** Filing agents whose accession prefixes front most company filings (Donnelley, Broadridge, Workiva, Toppan Merrill). */
const AGENTS = ['0001193125', '0001140361', '0001628280', '0000950170'];
/** Institutions that file the yearly SC 13G/A on large holders. */
const HOLDERS = ['0000932471', '0001086364', '0000315066', '0000093751'];
const OTHER_8K_ITEMS = ['5.02', '8.01', '7.01,9.01', '1.01,2.03,9.01', '5.02,9.01', '8.01,9.01'];

/** A registrant's filings, newest first, and its fiscal year end as the submissions header writes it ("0926"). */
export interface FilingHistory {
  fiscalYearEnd: string;
  filings: SimFiling[];
}

/** One filing with every column of a real submissions row, in SEC's names. */
export interface SimFiling {
  accessionNumber: string;
  filingDate: string;
  reportDate: string;
  acceptanceDateTime: string;
  act: string;
  form: string;
  fileNumber: string;
  filmNumber: string;
  items: string;
  core_type: string;
  size: number;
  isXBRL: number;
  isInlineXBRL: number;
  primaryDocument: string;
  primaryDocDescription: string;
}

interface Draft {
  day: number;
  form: string;
  description: string;
  /** Accession prefix: the filer agent, the company itself, an insider or a holder. */
  filer: string;
  reportDay?: number;
  items?: string;
  document: string;
}

const ymd = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const compact = (day: number) => ymd(day).replace(/-/g, '');
const dayOf = (year: number, month: number, date: number) => Math.floor(Date.UTC(year, month, date) / DAY_MS);
/** Filings land on weekdays: a Saturday or Sunday moves to the Monday after. */
const weekday = (day: number) => {
  const dow = (day + 4) % 7;
  return dow === 6 ? day + 2 : dow === 0 ? day + 1 : day;
};

/**
 * A registrant's deterministic filing history from its first year to `now`, newest first: 10-K yearly and 10-Q
 * quarterly for its fiscal year, an earnings 8-K before each, DEF 14A and the annual-meeting 8-K, other 8-Ks,
 * SC 13G/A each February, and many insider Forms 3/4 and 144s. Each year is drawn from its own stream and then
 * cut at today, so a filing never changes as time passes; a registrant files 75 to 210 times a year, more than
 * SEC's recent block holds, so every history has older pages.
 */
export function filingHistory(registrant: SecRegistrant, now: number): FilingHistory {
  const base = mulberry32(registrant.seed);
  const firstYear = 2001 + Math.floor(base() * 8);
  const fiscalMonth = base() < 0.65 ? 12 : [9, 6, 3][Math.floor(base() * 3)];
  const agent = AGENTS[Math.floor(base() * AGENTS.length)];
  const insiders = Array.from({ length: 6 + Math.floor(base() * 9) }, () => paddedCik(1_100_000 + Math.floor(base() * 900_000)));
  const insiderRate = 60 + Math.floor(base() * 120);
  const self = paddedCik(registrant.cik);
  const ticker = registrant.tickers[0].toLowerCase().replace(/[^a-z0-9]/g, '');
  const fileNumber = `001-${10_000 + (registrant.seed % 30_000)}`;
  const today = Math.floor(now / DAY_MS);
  const lastYear = new Date(now).getUTCFullYear();

  const drafts: Draft[] = [];
  for (let year = firstYear; year <= lastYear; year++)
    drafts.push(...yearOf({ year, ticker, self, agent, insiders, insiderRate, fiscalMonth, seed: registrant.seed }));

  const start = dayOf(firstYear, 0, 1);
  const sequences = new Map<string, number>();
  const filings = drafts
    .filter((draft) => draft.day >= start && draft.day <= today)
    .sort((a, b) => a.day - b.day || a.form.localeCompare(b.form) || a.document.localeCompare(b.document))
    .map((draft, index) => toFiling(draft, index, { fileNumber, seed: registrant.seed, sequences }))
    // SEC lists by acceptance, newest first.
    .sort((a, b) => b.acceptanceDateTime.localeCompare(a.acceptanceDateTime) || b.accessionNumber.localeCompare(a.accessionNumber));
  return {
    fiscalYearEnd: ymd(dayOf(2001, fiscalMonth, 0))
      .slice(5)
      .replace('-', ''),
    filings,
  };
}

interface YearContext {
  year: number;
  ticker: string;
  self: string;
  agent: string;
  insiders: string[];
  insiderRate: number;
  fiscalMonth: number;
  seed: number;
}

/** The filings drawn for one calendar year's fiscal year end (some land in the next calendar year) and its insider activity. */
function yearOf({ year, ticker, self, agent, insiders, insiderRate, fiscalMonth, seed }: YearContext): Draft[] {
  const rand = mulberry32(hash2(seed, year));
  const between = (low: number, high: number) => low + Math.floor(rand() * (high - low + 1));
  const pick = <T>(values: readonly T[]) => values[Math.floor(rand() * values.length)];
  const drafts: Draft[] = [];
  const periodic = (periodEnd: number, form: '10-K' | '10-Q') => {
    const day = weekday(periodEnd + (form === '10-K' ? between(55, 75) : between(35, 44)));
    drafts.push({ day, form, description: form, filer: self, reportDay: periodEnd, document: `${ticker}-${compact(periodEnd)}.htm` });
    const release = weekday(day - between(2, 8));
    drafts.push({
      day: release,
      form: '8-K',
      description: '8-K',
      filer: agent,
      reportDay: release,
      items: '2.02,9.01',
      document: `${ticker}-${compact(release)}.htm`,
    });
  };

  const fiscalEnd = dayOf(year, fiscalMonth, 0);
  for (const monthsBack of [9, 6, 3]) periodic(dayOf(year, fiscalMonth - monthsBack, 0), '10-Q');
  periodic(fiscalEnd, '10-K');

  const proxy = weekday(fiscalEnd + between(95, 125));
  drafts.push({ day: proxy, form: 'DEF 14A', description: 'DEFINITIVE PROXY STATEMENT', filer: agent, document: `${ticker}${year}_def14a.htm` });
  if (rand() < 0.7) {
    drafts.push({
      day: proxy,
      form: 'DEFA14A',
      description: 'DEFINITIVE ADDITIONAL PROXY SOLICITING MATERIALS',
      filer: agent,
      document: `${ticker}${year}_defa14a.htm`,
    });
  }
  const meeting = weekday(proxy + between(40, 50));
  drafts.push({
    day: meeting,
    form: '8-K',
    description: '8-K',
    filer: agent,
    reportDay: meeting,
    items: '5.07',
    document: `${ticker}-${compact(meeting)}.htm`,
  });

  for (let k = between(1, 4); k > 0; k--) {
    const day = weekday(dayOf(year, 0, 1) + between(0, 364));
    drafts.push({
      day,
      form: '8-K',
      description: pick(['8-K', 'FORM 8-K']),
      filer: agent,
      reportDay: day,
      items: pick(OTHER_8K_ITEMS),
      document: `${ticker}-${compact(day)}x.htm`,
    });
  }
  for (let k = between(1, 3); k > 0; k--) {
    const day = weekday(dayOf(year, 1, between(1, 14)));
    const form = year >= 2025 ? 'SCHEDULE 13G/A' : 'SC 13G/A';
    const document = year >= 2025 ? 'xslSCHEDULE_13G_X01/primary_doc.xml' : `${ticker}_sc13ga_${compact(day)}_${k}.htm`;
    drafts.push({ day, form, description: '', filer: pick(HOLDERS), document });
  }
  if (year % 3 === seed % 3) {
    const day = weekday(dayOf(year, 0, 1) + between(0, 364));
    drafts.push({ day, form: 'S-8', description: 'S-8', filer: agent, document: `${ticker}-s8_${compact(day)}.htm` });
  }

  const insiderFilings = Math.round(insiderRate * (0.75 + 0.5 * rand()));
  for (let k = 0; k < insiderFilings; k++) {
    const day = weekday(dayOf(year, 0, 1) + between(0, 364));
    const epoch = Math.floor((day * DAY_MS) / 1000) + between(36_000, 79_000);
    drafts.push({ day, form: '4', description: 'FORM 4', filer: pick(insiders), reportDay: day - between(0, 2), document: `xslF345X05/wk-form4_${epoch}.xml` });
  }
  for (let k = between(0, 2); k > 0; k--) {
    const day = weekday(dayOf(year, 0, 1) + between(0, 364));
    const epoch = Math.floor((day * DAY_MS) / 1000) + between(36_000, 79_000);
    drafts.push({ day, form: '3', description: 'FORM 3', filer: pick(insiders), reportDay: day, document: `xslF345X02/wk-form3_${epoch}.xml` });
  }
  for (let k = between(0, 8); k > 0; k--) {
    const day = weekday(dayOf(year, 0, 1) + between(0, 364));
    drafts.push({ day, form: '144', description: '', filer: pick(AGENTS), document: 'xsl144X01/primary_doc.xml' });
  }
  return drafts;
}

/** Inline XBRL tags these forms since 2019 (periodic reports) or 2023 (proxies); plain XBRL the periodic reports since 2009. */
function xbrlOf(form: string, year: number): { isXBRL: number; isInlineXBRL: number } {
  const periodic = form === '10-K' || form === '10-Q';
  const inline = ((periodic || form === '8-K') && year >= 2019) || (form === 'DEF 14A' && year >= 2023);
  return { isXBRL: inline || (periodic && year >= 2009) ? 1 : 0, isInlineXBRL: inline ? 1 : 0 };
}

const ACTS: Record<string, string> = {
  '10-K': '34',
  '10-Q': '34',
  '8-K': '34',
  'DEF 14A': '34',
  DEFA14A: '34',
  'SC 13G/A': '34',
  'SCHEDULE 13G/A': '34',
  'S-8': '33',
  '144': '33',
};
const SIZES: Record<string, [number, number]> = {
  '10-K': [4e6, 15e6],
  '10-Q': [2e6, 6e6],
  'DEF 14A': [3e6, 14e6],
  '4': [4e3, 9e3],
  '3': [4e3, 8e3],
  '144': [4e3, 6e3],
};

function toFiling(draft: Draft, index: number, context: { fileNumber: string; seed: number; sequences: Map<string, number> }): SimFiling {
  const rand = mulberry32(hash2(context.seed ^ 0x5ec, index));
  const year = new Date(draft.day * DAY_MS).getUTCFullYear();
  const yy = String(year % 100).padStart(2, '0');
  const key = `${draft.filer}-${yy}`;
  const sequence = (context.sequences.get(key) ?? 1 + (hash2(context.seed, year) % 400_000)) + 1;
  context.sequences.set(key, sequence);
  const insider = draft.form === '3' || draft.form === '4';
  const [low, high] = SIZES[draft.form] ?? [5e4, 6e5];
  const { isXBRL, isInlineXBRL } = xbrlOf(draft.form, year);
  const accepted = draft.day * DAY_MS + Math.floor(((10 + rand() * 12) * 3_600_000) / 1000) * 1000;
  return {
    accessionNumber: `${draft.filer}-${yy}-${String(sequence).padStart(6, '0')}`,
    filingDate: ymd(draft.day),
    reportDate: draft.reportDay === undefined ? '' : ymd(draft.reportDay),
    acceptanceDateTime: new Date(accepted).toISOString(),
    act: ACTS[draft.form] ?? '',
    form: draft.form,
    fileNumber: insider ? '' : draft.form.includes('13G') ? `005-${10_000 + (context.seed % 80_000)}` : context.fileNumber,
    filmNumber: insider ? '' : `${yy}${String(Math.floor(rand() * 1e7)).padStart(7, '0')}`,
    items: draft.items ?? '',
    core_type: isXBRL ? 'XBRL' : draft.form,
    size: Math.round(low + rand() * (high - low)),
    isXBRL,
    isInlineXBRL,
    primaryDocument: draft.document,
    primaryDocDescription: draft.description,
  };
}
