import { ledgerCopyRows } from './ledger-copy';
import { ledgerLine } from '../../../test/support/ledger-lines';
import { LedgerEntry, OutboxBatch } from './ledger-entry';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const AT = Date.UTC(2026, 10, 22, 1, 2, 3, 456);

const charge = (overrides: Partial<LedgerEntry> = {}): string =>
  ledgerLine({
    type: 'charge',
    accountId: A,
    referenceId: '0195f5a1-0000-7000-8000-000000000001',
    endpoint: 'account.credits',
    amountMicro: '-1000000',
    balanceAfterMicro: '5000000',
    epoch: 2,
    period: 7,
    seq: 10,
    atMs: AT,
    ...overrides,
  });
const rowsOf = (lines: string[]) => ledgerCopyRows(OutboxBatch.of(lines));

describe(ledgerCopyRows.name, () => {
  it('makes each charge a COPY row with credits, the api_call reference and the time of the call', () => {
    const copy = rowsOf([charge(), charge({ seq: 11, balanceAfterMicro: '4000000', atMs: AT + 1 })]);

    expect(copy?.text).toBe(
      `${A}\tcharge\t-1000000e-6\t5000000e-6\tapi_call\t0195f5a1-0000-7000-8000-000000000001\taccount.credits\t10\t2026-11-22T01:02:03.456Z\n` +
        `${A}\tcharge\t-1000000e-6\t4000000e-6\tapi_call\t0195f5a1-0000-7000-8000-000000000001\taccount.credits\t11\t2026-11-22T01:02:03.457Z\n`,
    );
  });

  it("folds the balance of each account's highest sequence number, whatever the line order", () => {
    const copy = rowsOf([
      charge({ seq: 12, balanceAfterMicro: '3000000' }),
      charge({ accountId: B, seq: 13, balanceAfterMicro: '9000000', epoch: 4, period: 1 }),
      charge({ seq: 11, balanceAfterMicro: '4000000' }),
    ]);

    expect(copy?.fold).toEqual({
      accountIds: [A, B],
      balances: ['3000000e-6', '9000000e-6'],
      epochs: ['2', '4'],
      periods: ['7', '1'],
      seqs: ['12', '13'],
    });
  });

  it('leaves a batch with a void or a period reset to the statement', () => {
    expect(rowsOf([charge(), charge({ type: 'void', amountMicro: '1000000' })])).toBeNull();
    expect(rowsOf([charge({ type: 'period_reset', referenceId: `${A}:e2:p8`, endpoint: '' })])).toBeNull();
  });

  it('leaves a batch with a line that is not of the ledger shape to the statement, which filters it', () => {
    expect(rowsOf([charge(), 'charge|only|four|fields'])).toBeNull();
    expect(rowsOf([charge(), `${charge()}|extra`])).toBeNull();
    expect(rowsOf([charge({ atMs: 'soon' as never })])).toBeNull();
  });

  it('refuses text that COPY would read as an escape, a column or a row end', () => {
    expect(rowsOf([charge({ endpoint: 'a\\nb' })])).toBeNull();
    expect(rowsOf([charge({ endpoint: 'a\tb' })])).toBeNull();
    expect(rowsOf([charge({ endpoint: 'a\rb' })])).toBeNull();
  });

  it('has nothing to copy for an empty batch', () => {
    expect(rowsOf([])).toBeNull();
  });
});
