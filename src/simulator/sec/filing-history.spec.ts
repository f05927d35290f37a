import { SimWorld } from '../world/sim-world';
import { buildSecRegistrants, SecRegistrant } from '../world/sec-registrants';
import { filingHistory } from './filing-history';
import { RECENT_AT_LEAST, splitHistory } from './submissions-body';

const DAY_MS = 86_400_000;
const NOW = Date.UTC(2026, 2, 5, 12, 0, 0);

describe(filingHistory.name, () => {
  let registrants: SecRegistrant[];

  beforeAll(() => {
    const world = new SimWorld({ wallets: 2 });
    registrants = buildSecRegistrants(world.seed, world.markets.listings);
  });

  it('gives share classes one CIK and every registrant its own', () => {
    const alphabet = registrants.find((r) => r.tickers.includes('GOOGL'));
    expect(alphabet?.tickers).toEqual(['GOOGL', 'GOOG']);
    expect(new Set(registrants.map((r) => r.cik)).size).toBe(registrants.length);
  });

  it('never changes a filing as time passes: a later day only adds filings', () => {
    const registrant = registrants[0];
    const before = filingHistory(registrant, NOW).filings;
    const later = filingHistory(registrant, NOW + 40 * DAY_MS).filings;
    expect(later.length).toBeGreaterThan(before.length);
    expect(later.slice(later.length - before.length)).toEqual(before);
  });

  it('files more than the recent block holds, for every registrant, in well-formed rows', () => {
    for (const registrant of registrants) {
      const { filings, fiscalYearEnd } = filingHistory(registrant, NOW);
      const split = splitHistory(filings, NOW);
      expect(split.recent.length).toBeGreaterThanOrEqual(RECENT_AT_LEAST);
      expect(split.pages.length).toBeGreaterThan(0);
      expect(fiscalYearEnd).toMatch(/^(0331|0630|0930|1231)$/);
      expect(filings[0].filingDate <= '2026-03-05').toBe(true);
      expect(new Set(filings.map((f) => f.accessionNumber)).size).toBe(filings.length);
    }
  });

  it('keeps each filing on a weekday, accepted on its filing date, newest first', () => {
    const { filings } = filingHistory(registrants[3], NOW);
    for (const filing of filings) {
      expect([0, 6]).not.toContain(new Date(`${filing.filingDate}T00:00:00Z`).getUTCDay());
      expect(filing.acceptanceDateTime.slice(0, 10)).toBe(filing.filingDate);
      expect(filing.accessionNumber).toMatch(/^\d{10}-\d{2}-\d{6}$/);
    }
    const accepted = filings.map((f) => f.acceptanceDateTime);
    expect(accepted).toEqual([...accepted].sort().reverse());
  });
});
