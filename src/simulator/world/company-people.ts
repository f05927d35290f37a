import { CompanyDraws, usdPerUnitFixed } from './company-facts';
import { Listing, MarketBook } from './market-book';

const DAY_MS = 86_400_000;
const YEAR_DAYS = 365;

type Person = { given: string; family: string; honorific: 'Mr.' | 'Ms.' };
type NamePool = { given: [string, Person['honorific']][]; family: string[]; familyFirst: boolean };

// prettier-ignore
const NAME_POOLS: Record<string, NamePool> = {
  us_market: {
    given: [['James', 'Mr.'], ['Mary', 'Ms.'], ['Robert', 'Mr.'], ['Patricia', 'Ms.'], ['John', 'Mr.'], ['Jennifer', 'Ms.'], ['Michael', 'Mr.'], ['Linda', 'Ms.'], ['David', 'Mr.'], ['Susan', 'Ms.'], ['Richard', 'Mr.'], ['Karen', 'Ms.'], ['Daniel', 'Mr.'], ['Laura', 'Ms.'], ['Andrew', 'Mr.'], ['Rachel', 'Ms.']],
    family: ['Smith', 'Johnson', 'Williams', 'Brown', 'Miller', 'Davis', 'Wilson', 'Anderson', 'Taylor', 'Moore', 'Martin', 'Thompson', 'Harris', 'Clark', 'Walker', 'Wright'],
    familyFirst: false,
  },
  hk_market: {
    given: [['Ka Wing', 'Mr.'], ['Siu Ling', 'Ms.'], ['Chi Keung', 'Mr.'], ['Mei Ling', 'Ms.'], ['Wai Man', 'Mr.'], ['Yuk Lan', 'Ms.'], ['Kwok Leung', 'Mr.'], ['Hoi Yan', 'Ms.']],
    family: ['Chan', 'Wong', 'Lee', 'Cheung', 'Lau', 'Ho', 'Ng', 'Leung', 'Tang', 'Lam'],
    familyFirst: true,
  },
  jp_market: {
    given: [['Hiroshi', 'Mr.'], ['Yuko', 'Ms.'], ['Takashi', 'Mr.'], ['Akiko', 'Ms.'], ['Kenji', 'Mr.'], ['Naoko', 'Ms.'], ['Satoshi', 'Mr.'], ['Emi', 'Ms.']],
    family: ['Sato', 'Suzuki', 'Takahashi', 'Tanaka', 'Watanabe', 'Ito', 'Yamamoto', 'Nakamura', 'Kobayashi', 'Kato'],
    familyFirst: false,
  },
  kr_market: {
    given: [['Min-jun', 'Mr.'], ['Seo-yeon', 'Ms.'], ['Ji-hoon', 'Mr.'], ['Hye-jin', 'Ms.'], ['Dong-hyun', 'Mr.'], ['Soo-min', 'Ms.'], ['Jae-won', 'Mr.'], ['Eun-ji', 'Ms.']],
    family: ['Kim', 'Lee', 'Park', 'Choi', 'Jung', 'Kang', 'Cho', 'Yoon', 'Jang', 'Lim'],
    familyFirst: false,
  },
};

/** Titles in rank order; the first few are paid the most and disclose age and pay. */
const TITLES = [
  'Chief Executive Officer & Director',
  'Chief Financial Officer',
  'Chief Operating Officer',
  'General Counsel & Secretary',
  'Chief Technology Officer',
  'Chief People Officer',
  'Senior Vice President of Sales',
  'Chief Accounting Officer',
  'Director of Investor Relations',
  'Vice President of Corporate Development',
];
/** Yearly pay in USD of the top disclosed officer, then a share of it for the others. */
const CEO_PAY_USD: [number, number] = [3e6, 28e6];
const DISCLOSED_US = 5;
const DISCLOSED_ELSEWHERE = 3;

export interface Officer {
  name: string;
  /** As filings spell it: FAMILY GIVEN. */
  filerName: string;
  title: string;
  age: number | null;
  yearBorn: number | null;
  /** In the listing's currency; null when not disclosed. */
  totalPay: number | null;
}

export type InsiderKind = 'sale' | 'saleRange' | 'purchase' | 'gift' | 'award';

export interface InsiderTrade {
  /** As filings spell it: FAMILY GIVEN. */
  filerName: string;
  relation: string;
  /** Midnight UTC of the trade day. */
  date: number;
  kind: InsiderKind;
  shares: number;
  /** Average price in the listing's currency; for a range, its low and high too. */
  price: number;
  low: number;
  high: number;
  ownership: 'D' | 'I';
}

function personOf(pool: NamePool, draws: CompanyDraws, salt: number): Person {
  const [given, honorific] = pool.given[Math.floor(draws.unit(salt) * pool.given.length)];
  const family = pool.family[Math.floor(draws.unit(salt + 1) * pool.family.length)];
  return { given, family, honorific };
}

/** A person no one else at the company is named as (a few redraws, then whoever comes). */
function uniquePerson(pool: NamePool, draws: CompanyDraws, salt: number, taken: Set<string>): Person {
  let person = personOf(pool, draws, salt);
  for (let attempt = 1; attempt < 8 && taken.has(filerName(person)); attempt++) person = personOf(pool, draws, salt + 1000 * attempt);
  taken.add(filerName(person));
  return person;
}

function filerName(person: Person): string {
  return `${person.family} ${person.given}`.toUpperCase();
}

function poolOf(listing: Listing): NamePool {
  return NAME_POOLS[listing.exchangeDef.market] ?? NAME_POOLS.us_market;
}

function displayName(pool: NamePool, person: Person): string {
  return `${person.honorific} ${pool.familyFirst ? `${person.family} ${person.given}` : `${person.given} ${person.family}`}`;
}

/** Six to ten officers in rank order; the top ones disclose age and pay, as Yahoo's profiles show them. */
export function officersOf(book: MarketBook, listing: Listing, t: number): Officer[] {
  const draws = new CompanyDraws(listing);
  const pool = poolOf(listing);
  const count = 6 + Math.floor(draws.unit(100) * 5);
  const disclosed = listing.exchangeDef.market === 'us_market' ? DISCLOSED_US : DISCLOSED_ELSEWHERE;
  const ceoPay = draws.between(...CEO_PAY_USD, 101) / usdPerUnitFixed(book, listing.currency);
  const year = new Date(t).getUTCFullYear();
  const taken = new Set<string>();
  return TITLES.slice(0, count).map((title, rank) => {
    const person = uniquePerson(pool, draws, 110 + 2 * rank, taken);
    const age = rank < disclosed + 2 ? Math.round(draws.between(44, 68, 130 + rank)) : null;
    const pay = rank === 0 ? ceoPay : ceoPay * draws.between(0.18, 0.4, 140 + rank);
    return {
      name: displayName(pool, person),
      filerName: filerName(person),
      title,
      age,
      yearBorn: age === null ? null : year - 1 - age,
      totalPay: rank < disclosed ? Math.round(pay) : null,
    };
  });
}

/** Insiders' trades of the last year, newest first: mostly sales by officers and directors, some grants, gifts and buys. */
export function insiderTradesOf(book: MarketBook, listing: Listing, t: number): InsiderTrade[] {
  const draws = new CompanyDraws(listing);
  const pool = poolOf(listing);
  const officers = officersOf(book, listing, t);
  const taken = new Set(officers.map((officer) => officer.filerName));
  const insiders = [
    ...officers.slice(0, 4).map((officer) => ({ filerName: officer.filerName, relation: officer.title })),
    ...[0, 1, 2].map((k) => ({ filerName: filerName(uniquePerson(pool, draws, 170 + 2 * k, taken)), relation: 'Director' })),
  ];
  const shares = listing.shares ?? 1e9;
  const count = 10 + Math.floor(draws.unit(200) * 10);
  const today = Math.floor(t / DAY_MS) * DAY_MS;
  const trades: InsiderTrade[] = [];
  for (let k = 0; k < count; k++) {
    const insider = insiders[Math.floor(draws.unit(300 + k) * insiders.length)];
    const date = weekday(today - (1 + Math.floor(draws.unit(400 + k) * YEAR_DAYS)) * DAY_MS);
    const price = roundPrice(book.listingPx(listing, date + 15 * 3_600_000));
    const roll = draws.unit(500 + k);
    const kind: InsiderKind = roll < 0.55 ? 'sale' : roll < 0.7 ? 'saleRange' : roll < 0.82 ? 'award' : roll < 0.92 ? 'purchase' : 'gift';
    const size = Math.max(100, Math.round((shares * draws.between(2e-7, 2e-5, 600 + k)) / 100) * 100);
    const spread = kind === 'saleRange' ? price * draws.between(0.004, 0.02, 700 + k) : 0;
    trades.push({
      filerName: insider.filerName,
      relation: insider.relation,
      date,
      kind,
      shares: kind === 'award' ? Math.max(100, Math.round(size / 10)) : size,
      price: kind === 'gift' ? 0 : price,
      low: roundPrice(price - spread),
      high: roundPrice(price + spread),
      ownership: draws.unit(800 + k) < 0.85 ? 'D' : 'I',
    });
  }
  return trades.sort((a, b) => b.date - a.date);
}

/** Trades settle on weekdays: a Saturday or Sunday moves back to Friday. */
function weekday(dayStart: number): number {
  const dow = new Date(dayStart).getUTCDay();
  return dow === 6 ? dayStart - DAY_MS : dow === 0 ? dayStart - 2 * DAY_MS : dayStart;
}

function roundPrice(value: number): number {
  return Math.round(value * 100) / 100;
}
