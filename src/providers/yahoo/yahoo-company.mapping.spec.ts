import { toExecutive, toHolding, toInsiderTransaction } from './yahoo-company.mapping';
import { YahooInsiderRow } from './yahoo-company.schema';
import { parseQuoteSummary } from './yahoo-quote-summary.schema';
import { vendorFixture } from '../../../test/support/vendor-fixtures';

const MODULES = ['assetProfile', 'institutionOwnership', 'fundOwnership', 'insiderTransactions'] as const;
const aapl = () => parseQuoteSummary(vendorFixture('yahoo', 'quoteSummary.AAPL.all-modules.json'), MODULES);

function insiderRow(overrides: Partial<YahooInsiderRow>): YahooInsiderRow {
  return {
    filerName: 'DOE JANE',
    filerRelation: 'Director',
    transactionText: null,
    shares: '100',
    value: null,
    startDate: '2025-01-02',
    ownership: 'D',
    ...overrides,
  };
}

describe(toExecutive.name, () => {
  it('maps officers: role from the title, no start date, pay with its currency only when paid', () => {
    const [cook, , , , parekh] = aapl().assetProfile!.officers.map((officer) => toExecutive(officer, 'USD'));
    expect(cook).toEqual({ name: 'Mr. Timothy D. Cook', role: 'CEO & Director', age: '63', since: null, compensation: '16239562', currency: 'USD' });
    expect(parekh).toEqual({ name: 'Mr. Kevan Parekh', role: 'Senior VP & CFO', age: '52', since: null, compensation: null, currency: null });
  });
});

describe(toHolding.name, () => {
  it('maps institutions and funds: stake and change as fractions, no fund weight', () => {
    const modules = aapl();
    expect(toHolding(modules.institutionOwnership!.holders[3])).toEqual({
      name: 'FMR, LLC',
      stake: '0.0227',
      change: '-0.061100002',
      reportedAt: '2024-12-31',
      weight: null,
    });
    expect(modules.fundOwnership!.holders.map(toHolding).every((holding) => holding !== null && holding.weight === null)).toBe(true);
  });

  it('leaves out a row without a stake', () => {
    expect(toHolding({ organization: 'X', pctHeld: null, pctChange: null, position: null, value: null, reportDate: null })).toBeNull();
  });
});

describe(toInsiderTransaction.name, () => {
  it('takes a single price from the wording and signs a sale negative', () => {
    const [first] = aapl().insiderTransactions!.transactions;
    expect(toInsiderTransaction(first)).toEqual({
      name: 'LEVINSON ARTHUR D',
      relation: 'Director',
      transactionDate: '2025-02-03',
      filingDate: null,
      transactionCode: null,
      shares: '1516',
      change: '-1516',
      price: '226.35',
      value: '343147',
      text: 'Sale at price 226.35 per share.',
    });
  });

  it('prices a range as value / shares', () => {
    const ranged = aapl().insiderTransactions!.transactions.find((row) => row.transactionText === 'Sale at price 248.61 - 251.10 per share.');
    expect(toInsiderTransaction(ranged!)).toMatchObject({ shares: '100000', change: '-100000', value: '24997395', price: '249.974' });
  });

  it('signs gifts negative and purchases and awards positive', () => {
    expect(toInsiderTransaction(insiderRow({ transactionText: 'Stock Gift at price 0.00 per share.', value: '0' }))).toMatchObject({
      change: '-100',
      price: '0',
    });
    expect(toInsiderTransaction(insiderRow({ transactionText: 'Purchase at price 12.50 per share.' }))).toMatchObject({ change: '100', price: '12.5' });
    expect(toInsiderTransaction(insiderRow({ transactionText: 'Stock Award(Grant) at price 0.00 per share.' }))).toMatchObject({ change: '100' });
  });

  it('leaves direction and price unknown when Yahoo gives no wording and no value', () => {
    const blank = aapl().insiderTransactions!.transactions[1];
    expect(toInsiderTransaction(blank)).toMatchObject({ name: 'GORSKY ALEX', shares: '1516', change: null, price: null, value: null, text: null });
  });

  it('gives no price for zero shares', () => {
    expect(toInsiderTransaction(insiderRow({ shares: '0', value: '10' })).price).toBeNull();
  });
});
