import { Injectable } from '@nestjs/common';
import { Filing, FilingsProvider, ListFilingsParams, RegistrantFilings } from '../../../providers/filings-provider';
import { SecEdgarClient } from '../../../providers/sec-edgar/sec-edgar.client';
import { SecFilingRow, SecSubmissionsPage } from '../../../providers/sec-edgar/sec-edgar.types';

/**
 * Older pages one listing reads at most. A big filer (a bank issuing notes daily) has dozens of multi-megabyte
 * pages; a query reaching further back than this returns what the newest pages hold.
 */
export const MAX_OLDER_PAGES = 10;

/**
 * SEC EDGAR as the filings vendor: ticker -> CIK through company_tickers.json, then the registrant's
 * submissions. Filters by form (exact, case-insensitive: "10-K" is not "10-K/A"), by filingDate from..to
 * (inclusive), newest first, at most `limit`.
 *
 * The recent block (the last year or 1,000 filings, whichever is more) answers most queries alone. Older
 * pages are read only when both hold: the recent block yields fewer than `limit` matches (so older filings
 * could still be among the newest `limit`), and the range reaches back to or before the recent block's
 * oldest filingDate (no `from` does). Pages are read newest first, skipping those whose filingFrom..filingTo
 * misses the range, until `limit` matches are found or MAX_OLDER_PAGES have been read.
 */
@Injectable()
export class SecFilings implements FilingsProvider {
  readonly name = 'sec';

  constructor(private readonly client: SecEdgarClient) {}

  async listFilings({ symbol, from, to, forms, limit, signal }: ListFilingsParams): Promise<RegistrantFilings | null> {
    const registrant = await this.client.registrant(symbol, signal);
    if (!registrant) return null;
    const submissions = await this.client.submissions(registrant.cik, signal);
    const wanted = forms && forms.length > 0 ? new Set(forms.map((form) => form.trim().toUpperCase())) : null;
    const matches = (row: SecFilingRow) =>
      (wanted === null || wanted.has(row.form.toUpperCase())) && (from === undefined || row.filingDate >= from) && (to === undefined || row.filingDate <= to);

    const found = submissions.recent.filter(matches);
    if (found.length < limit && reachesBefore(submissions.recent, from)) {
      for (const page of olderPagesInRange(submissions.files, from, to)) {
        found.push(...(await this.client.submissionsFile(page.name, signal)).filter(matches));
        if (found.length >= limit) break;
      }
    }
    return {
      registrantId: submissions.cik,
      registrantName: submissions.name,
      firstFilingDate: firstFilingDate(submissions.recent, submissions.files),
      filings: newestFirst(found)
        .slice(0, limit)
        .map((row) => this.toFiling(submissions.cik, row)),
    };
  }

  private toFiling(cik: string, row: SecFilingRow): Filing {
    return {
      formType: row.form,
      filingDate: row.filingDate,
      acceptedDate: row.acceptanceDateTime,
      accessionNo: row.accessionNumber,
      reportUrl: this.client.documentUrl(cik, row),
      description: describe(row),
    };
  }
}

/** The oldest day of the recent block and the older pages; today for a registrant that never filed (none is listed then). */
function firstFilingDate(recent: readonly SecFilingRow[], pages: readonly SecSubmissionsPage[]): string {
  const days = [...recent.map((row) => row.filingDate), ...pages.map((page) => page.filingFrom)];
  return days.length === 0 ? new Date().toISOString().slice(0, 10) : days.reduce((min, day) => (day < min ? day : min));
}

/** Whether the range starts on or before the recent block's oldest day (that day may continue on the newest older page). */
function reachesBefore(recent: readonly SecFilingRow[], from: string | undefined): boolean {
  if (recent.length === 0) return true;
  const oldest = recent.reduce((min, row) => (row.filingDate < min ? row.filingDate : min), recent[0].filingDate);
  return from === undefined || from <= oldest;
}

function olderPagesInRange(pages: readonly SecSubmissionsPage[], from: string | undefined, to: string | undefined): SecSubmissionsPage[] {
  return pages
    .filter((page) => (from === undefined || page.filingTo >= from) && (to === undefined || page.filingFrom <= to))
    .sort((a, b) => b.filingTo.localeCompare(a.filingTo))
    .slice(0, MAX_OLDER_PAGES);
}

/** By filingDate, then acceptance time, newest first; one row per accession (a filing on a page boundary is not listed twice). */
function newestFirst(rows: readonly SecFilingRow[]): SecFilingRow[] {
  const unique = new Map(rows.map((row) => [row.accessionNumber, row]));
  return [...unique.values()].sort(
    (a, b) =>
      b.filingDate.localeCompare(a.filingDate) ||
      b.acceptanceDateTime.localeCompare(a.acceptanceDateTime) ||
      b.accessionNumber.localeCompare(a.accessionNumber),
  );
}

/** SEC's description, else the form; an 8-K's item codes say what it reports ("8-K (Items 2.02, 9.01)": results). */
function describe(row: SecFilingRow): string {
  const base = row.primaryDocDescription.trim() || row.form;
  const items = row.items
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items.length > 0 ? `${base} (Items ${items.join(', ')})` : base;
}
