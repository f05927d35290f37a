import { LEDGER_FIELD_COUNT, OutboxBatch } from './ledger-entry';

/** The credit_transactions columns of a COPY row, in the order ledgerCopyRows writes them. */
export const LEDGER_COPY_COLUMNS = 'account_id, type, amount, balance_after, reference_type, reference_id, endpoint, seq, created_at';

/** Per account, the newest balance of a batch: what the fold writes into accounts (arrays for unnest). */
export interface LedgerFold {
  accountIds: string[];
  /** Credits as '<micro>e-6', which PostgreSQL parses as numeric. */
  balances: string[];
  epochs: string[];
  periods: string[];
  seqs: string[];
}

/** The batch's usage per account, period, UTC day and endpoint (arrays for unnest; usageFromLedgerSql). */
export interface LedgerCopyUsage {
  accountIds: string[];
  periods: string[];
  days: string[];
  endpoints: string[];
  calls: number[];
  /** Credits as '<micro>e-6'. */
  credits: string[];
}

export interface LedgerCopyRows {
  /** COPY text format: one row per line, tab-separated, each row ending in '\n'. */
  text: string;
  fold: LedgerFold;
  usage: LedgerCopyUsage;
}

const NEEDS_ESCAPING = /[\t\\\r]/;

/**
 * A batch of charges as COPY rows for credit_transactions, its fold and its usage; null when the batch holds
 * anything else (a void or a period reset, whose rows need SQL: a delete, a name-based reference) or a
 * line that is not a charge of the ledger shape, which the statement path filters out. Every row of a
 * charge is the statement's: `amount` and `balance_after` in credits, reference type `api_call`, the
 * time of the call as created_at.
 *
 * A field that does not parse (a bad UUID or number) is left for PostgreSQL to reject, which fails the
 * COPY: the batch then takes the statement path too. Nothing here can mis-read a line into a wrong row:
 * a line has exactly the ten fields, and text that COPY would read as an escape or a row end is refused.
 */
export function ledgerCopyRows(batch: OutboxBatch): LedgerCopyRows | null {
  if (batch.count === 0 || NEEDS_ESCAPING.test(batch.text)) return null;
  const newest = new Map<string, string[]>();
  const usage = new Map<string, { accountId: string; period: string; day: string; endpoint: string; calls: number; creditsMicro: number }>();
  let text = '';
  // Charges of one admission batch share their time: its text is made once per run of equal times.
  let lastMs = '';
  let lastIso = '';
  for (const line of batch.lines()) {
    const f = line.split('|');
    if (f.length !== LEDGER_FIELD_COUNT || f[0] !== 'charge') return null;
    const [, accountId, requestId, endpoint, amountMicro, balanceMicro, , period, seq, atMs] = f;
    if (atMs !== lastMs) {
      const time = new Date(Number(atMs));
      if (!/^\d+$/.test(atMs) || Number.isNaN(time.getTime())) return null;
      lastMs = atMs;
      lastIso = time.toISOString();
    }
    text += `${accountId}\tcharge\t${amountMicro}e-6\t${balanceMicro}e-6\tapi_call\t${requestId}\t${endpoint || '\\N'}\t${seq}\t${lastIso}\n`;
    const held = newest.get(accountId);
    if (!held || Number(held[8]) < Number(seq)) newest.set(accountId, f);
    const day = lastIso.slice(0, 10);
    const key = `${accountId}|${period}|${day}|${endpoint}`;
    const counted = usage.get(key);
    if (counted) {
      counted.calls += 1;
      counted.creditsMicro -= Number(amountMicro);
    } else usage.set(key, { accountId, period, day, endpoint, calls: 1, creditsMicro: -Number(amountMicro) });
  }
  const fold: LedgerFold = { accountIds: [], balances: [], epochs: [], periods: [], seqs: [] };
  for (const [accountId, f] of newest) {
    // As the statement's fold: a line without a balance ('-1') never moves the account's.
    if (f[5].startsWith('-')) continue;
    fold.accountIds.push(accountId);
    fold.balances.push(`${f[5]}e-6`);
    fold.epochs.push(f[6]);
    fold.periods.push(f[7]);
    fold.seqs.push(f[8]);
  }
  const byGroup: LedgerCopyUsage = { accountIds: [], periods: [], days: [], endpoints: [], calls: [], credits: [] };
  for (const u of usage.values()) {
    byGroup.accountIds.push(u.accountId);
    byGroup.periods.push(u.period);
    byGroup.days.push(u.day);
    byGroup.endpoints.push(u.endpoint);
    byGroup.calls.push(u.calls);
    byGroup.credits.push(`${u.creditsMicro}e-6`);
  }
  return { text, fold, usage: byGroup };
}
