import { fundsOf, Holder, institutionsOf } from '../world/company-coverage';
import { companyFacts, CompanyDraws, usdPerUnitFixed } from '../world/company-facts';
import { insiderTradesOf, InsiderKind, officersOf } from '../world/company-people';
import { Listing, MarketBook } from '../world/market-book';
import { amount, day, percent } from './raw-fmt';

const ZERO = { raw: 0, fmt: null, longFmt: '0' };
/** Each market's head-office city, state (US only), calling code and country. */
// prettier-ignore
const OFFICES: Record<string, { cities: [string, string | null, string][]; country: string; phone: string }> = {
  us_market: { cities: [['New York', 'NY', '10001'], ['San Francisco', 'CA', '94105'], ['Austin', 'TX', '78701'], ['Seattle', 'WA', '98101'], ['Boston', 'MA', '02110'], ['Chicago', 'IL', '60601']], country: 'United States', phone: '(212) 555-01' },
  hk_market: { cities: [['Hong Kong', null, ''], ['Kowloon', null, '']], country: 'Hong Kong', phone: '852 2555 01' },
  jp_market: { cities: [['Tokyo', null, '100-0005'], ['Osaka', null, '530-0001']], country: 'Japan', phone: '81 3 5555 01' },
  kr_market: { cities: [['Seoul', null, '04524'], ['Seongnam', null, '13561']], country: 'South Korea', phone: '82 2 555 01' },
};
const STREETS = ['Park Avenue', 'Market Street', 'Harbour Road', 'Queensway', 'Innovation Way', 'Central Plaza'];

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/(^-|-$)/g, '');
}

/** `assetProfile`: head office, sector and industry, staff, a summary and the officers (none for a fund). */
export function assetProfileModule(book: MarketBook, listing: Listing, t: number): Record<string, unknown> {
  const draws = new CompanyDraws(listing);
  const office = OFFICES[listing.exchangeDef.market] ?? OFFICES.us_market;
  const [city, state, zip] = office.cities[Math.floor(draws.unit(4001) * office.cities.length)];
  const site = slug(listing.longName.replace(/\b(inc|corp|corporation|co|ltd|limited|plc|group|holdings?)\b\.?/gi, ''))
    .split('-')
    .slice(0, 2)
    .join('');
  const equity = listing.type === 'EQUITY';
  const facts = equity ? companyFacts(listing, t) : null;
  const revenueUsd = facts ? facts.ttm.totalRevenue * usdPerUnitFixed(book, listing.currency) : 0;
  const officers = equity ? officersOf(book, listing, t) : [];
  const fiscalYear = facts?.annual[0]?.fiscalYear ?? new Date(t).getUTCFullYear() - 1;
  const governance = (salt: number) => 1 + Math.floor(draws.unit(salt) * 10);
  return {
    address1: `${1 + Math.floor(draws.unit(4002) * 900)} ${STREETS[Math.floor(draws.unit(4003) * STREETS.length)]}`,
    city,
    state,
    zip,
    country: office.country,
    phone: `${office.phone}${String(Math.floor(draws.unit(4004) * 100)).padStart(2, '0')}`,
    website: `https://www.${site || 'example'}.com`,
    industry: listing.industry,
    industryKey: listing.industry ? slug(listing.industry) : null,
    industryDisp: listing.industry,
    sector: listing.sector,
    sectorKey: listing.sector ? slug(listing.sector) : null,
    sectorDisp: listing.sector,
    longBusinessSummary: equity
      ? `${listing.longName} operates in the ${(listing.industry ?? 'diversified').toLowerCase()} industry within the ${(listing.sector ?? 'industrials').toLowerCase()} sector. The company sells its products and services through direct and partner channels and is headquartered in ${city}, ${office.country}.`
      : `The fund seeks to track the investment results of its index. ${listing.longName} is listed in ${city}.`,
    fullTimeEmployees: equity ? Math.max(50, Math.round(revenueUsd / draws.between(300_000, 2_500_000, 4005))) : null,
    companyOfficers: officers.map((officer) => ({
      maxAge: 1,
      name: officer.name,
      ...(officer.age === null ? {} : { age: officer.age }),
      title: officer.title,
      ...(officer.yearBorn === null ? {} : { yearBorn: officer.yearBorn }),
      fiscalYear,
      ...(officer.totalPay === null ? {} : { totalPay: amount(officer.totalPay) }),
      exercisedValue: ZERO,
      unexercisedValue: ZERO,
    })),
    auditRisk: equity ? governance(4010) : null,
    boardRisk: equity ? governance(4011) : null,
    compensationRisk: equity ? governance(4012) : null,
    shareHolderRightsRisk: equity ? governance(4013) : null,
    overallRisk: equity ? governance(4014) : null,
    governanceEpochDate: Math.floor(t / 86_400_000 / 30) * 30 * 86_400,
    compensationAsOfEpochDate: Date.UTC(fiscalYear, 11, 31) / 1000,
    irWebsite: `https://investor.${site || 'example'}.com/`,
    executiveTeam: [],
    maxAge: 86400,
  };
}

function ownershipList(holders: Holder[]): Record<string, unknown> {
  return {
    maxAge: 1,
    ownershipList: holders.map((holder) => ({
      maxAge: 1,
      reportDate: day(holder.reportDate),
      organization: holder.organization,
      pctHeld: percent(holder.pctHeld),
      position: amount(holder.position),
      value: amount(holder.value),
      pctChange: percent(holder.pctChange),
    })),
  };
}

export function institutionOwnershipModule(book: MarketBook, listing: Listing, t: number): Record<string, unknown> {
  return ownershipList(institutionsOf(book, listing, t));
}

export function fundOwnershipModule(book: MarketBook, listing: Listing, t: number): Record<string, unknown> {
  return ownershipList(fundsOf(book, listing, t));
}

const WORDING: Record<InsiderKind, (low: string, high: string) => string> = {
  sale: (low) => `Sale at price ${low} per share.`,
  saleRange: (low, high) => `Sale at price ${low} - ${high} per share.`,
  purchase: (low) => `Purchase at price ${low} per share.`,
  gift: () => 'Stock Gift at price 0.00 per share.',
  // Yahoo sends grants with an empty wording and no value.
  award: () => '',
};

/** `insiderTransactions`: the last year's trades, newest first, worded as Yahoo words them. */
export function insiderTransactionsModule(book: MarketBook, listing: Listing, t: number): Record<string, unknown> {
  const transactions = insiderTradesOf(book, listing, t).map((trade) => ({
    maxAge: 1,
    shares: amount(trade.shares),
    ...(trade.kind === 'award' ? {} : { value: amount(Math.round(trade.shares * (trade.kind === 'saleRange' ? (trade.low + trade.high) / 2 : trade.price))) }),
    filerUrl: '',
    transactionText: WORDING[trade.kind](trade.low.toFixed(2), trade.high.toFixed(2)),
    filerName: trade.filerName,
    filerRelation: trade.relation,
    moneyText: '',
    startDate: day(trade.date),
    ownership: trade.ownership,
  }));
  return { transactions, maxAge: 1 };
}
