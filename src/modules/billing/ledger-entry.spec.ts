import { ledgerLine } from '../../../test/support/ledger-lines';
import { LedgerEntry, OutboxBatch, parseLedgerEntry } from './ledger-entry';

const ACCOUNT = '0b9f3c2e-5d1a-4c6e-9f00-1a2b3c4d5e6f';
const REQUEST = '019aa8f2-1c3d-7e4f-8a5b-6c7d8e9f0a1b';
const OTHER_REQUEST = '019aa8f2-1c3d-7e4f-8a5b-6c7d8e9f0a1c';

function makeEntry(overrides: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    type: 'charge',
    accountId: ACCOUNT,
    referenceId: REQUEST,
    endpoint: 'hl.perp.holders',
    amountMicro: '-1000000',
    balanceAfterMicro: '99999999000000',
    epoch: 3,
    period: 7,
    seq: 42,
    atMs: 1_800_000_000_000,
    ...overrides,
  };
}

describe(parseLedgerEntry.name, () => {
  const sut = parseLedgerEntry;

  it.each([
    ['a charge', makeEntry()],
    ['a void', makeEntry({ type: 'void', amountMicro: '1000000', balanceAfterMicro: '-1' })],
    ['a period reset', makeEntry({ type: 'period_reset', referenceId: 'period:7', endpoint: '', amountMicro: '5000000', balanceAfterMicro: '20000000' })],
  ])('round-trips %s', (_what, entry) => {
    expect(sut(ledgerLine(entry))).toEqual(entry);
  });

  it('keeps amounts as exact strings', () => {
    expect(sut(`charge|${ACCOUNT}|${REQUEST}|e|-1|123456789012345678901|1|0|1|1`)).toMatchObject({ balanceAfterMicro: '123456789012345678901' });
  });

  it.each([
    ['9 fields', `charge|${ACCOUNT}|${REQUEST}|hl.perp.holders|-1000000|4000000|1|0|1`],
    ['11 fields', `charge|${ACCOUNT}|${REQUEST}|hl.perp.holders|-1000000|4000000|1|0|1|1000|extra`],
    ['an empty line', ''],
  ])('rejects a line with %s', (_what, line) => {
    expect(sut(line)).toBeNull();
  });

  it.each(['refund', 'CHARGE', ''])('rejects the unknown type %j', (type) => {
    expect(sut(`${type}|${ACCOUNT}|${REQUEST}|hl.perp.holders|-1000000|4000000|1|0|1|1000`)).toBeNull();
  });

  it.each([
    ['an account id that is not a uuid', 'charge|acct-1|${REQUEST}|e|-1000000|4000000|1|0|1|1000'],
    ['an empty reference', `charge|${ACCOUNT}||e|-1000000|4000000|1|0|1|1000`],
    ['a decimal amount', `charge|${ACCOUNT}|${REQUEST}|e|-1.5|4000000|1|0|1|1000`],
    ['a charge reference that is not a uuid (the ledger stores request ids as uuid)', `charge|${ACCOUNT}|req-1|e|-1000000|4000000|1|0|1|1000`],
    ['a void reference that is not a uuid', `void|${ACCOUNT}|req-1|e|1000000|4000000|1|0|1|1000`],
    ['a seq that is not a number', `charge|${ACCOUNT}|${REQUEST}|e|-1000000|4000000|1|0|x|1000`],
  ])('rejects %s (PostgreSQL could not cast it)', (_what, line) => {
    expect(sut(line)).toBeNull();
  });
});

describe(OutboxBatch.name, () => {
  const charge = ledgerLine(makeEntry({ referenceId: REQUEST }));
  const other = ledgerLine(makeEntry({ referenceId: OTHER_REQUEST, seq: 43 }));
  const voided = ledgerLine(makeEntry({ type: 'void', referenceId: REQUEST, seq: 44 }));

  it('holds the lines as one text, with their count and the first and last line for the trim', () => {
    const sut = OutboxBatch.of([charge, other, voided]);

    expect(sut).toMatchObject({ text: `${charge}\n${other}\n${voided}`, count: 3, first: charge, last: voided });
    expect(sut.lines()).toEqual([charge, other, voided]);
  });

  it.each([
    ['first', [voided, charge], true],
    ['a later', [charge, voided], true],
    ['no', [charge, other], false],
  ])('tells whether a batch holds a void (%s line)', (_where, lines, expected) => {
    expect(OutboxBatch.of(lines).hasVoid).toBe(expected);
  });

  it('does not mistake a field that starts with "void|" inside a line for a void line', () => {
    const line = ledgerLine(makeEntry({ endpoint: 'void' }));

    expect(OutboxBatch.of([charge, line]).hasVoid).toBe(false);
  });

  it('is empty for no lines', () => {
    const sut = OutboxBatch.of([]);

    expect(sut).toMatchObject({ count: 0, first: '', last: '' });
    expect(sut.lines()).toEqual([]);
    expect(sut.hasVoid).toBe(false);
  });
});
