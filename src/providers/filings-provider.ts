import { refuseAs } from './kit/provider-disabled.error';

export const FILINGS_PROVIDER = Symbol('FILINGS_PROVIDER');

/** One regulatory filing (contract part 2.4, SEC filings item). Dates are YYYY-MM-DD, acceptedDate ISO-8601. */
export interface Filing {
  formType: string;
  filingDate: string;
  acceptedDate: string;
  accessionNo: string;
  reportUrl: string;
  description: string;
}

export interface ListFilingsParams {
  /** The ticker as listed ('AAPL'); the vendor maps it to its own id (a CIK). */
  symbol: string;
  from?: string;
  to?: string;
  /** Form types to keep ('10-K', '10-Q'); all when absent. */
  forms?: readonly string[];
  limit: number;
  signal?: AbortSignal;
}

/**
 * Regulatory filings (contract part 4.3, `/stock/{symbol}/sec-filings`), newest first. A separate slot
 * from equities: filings come from the regulator while quotes come from a market vendor.
 */
export interface FilingsProvider {
  readonly name: string;
  /** Newest first, at most `limit`; null when the regulator has no registrant for the ticker (a HK, JP or KR listing). */
  listFilings(params: ListFilingsParams): Promise<RegistrantFilings | null>;
}

export interface RegistrantFilings {
  /** The regulator's id of the registrant (a zero-padded CIK) and its name. */
  registrantId: string;
  registrantName: string;
  /** The day of the registrant's first filing on record (YYYY-MM-DD): where a search without `from` starts. */
  firstFilingDate: string;
  filings: Filing[];
}

/** Answers when no filings vendor is configured or it is switched off. */
export class DisabledFilingsProvider implements FilingsProvider {
  readonly name = 'none';
  listFilings = refuseAs('filings');
}
