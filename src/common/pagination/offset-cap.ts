import { AppError } from '../errors/app-error';

/**
 * Deepest row offset paging may reach. Deep OFFSET scans cost the database linearly and drift as data
 * refreshes; past this point clients must use cursor paging (uncapped) where the endpoint offers it.
 */
export const OFFSET_ROW_CAP = 10_000;

/**
 * Rejects a page whose first row would sit at or beyond the cap: (page - 1) × limit ≥ 10,000.
 * Call it on offset requests only: when a cursor is present the page is ignored and no cap applies.
 */
export function assertWithinOffsetCap(page: number, limit: number): void {
  // The DTO already validated both; this guards direct callers, since NaN would slip past the comparison.
  if (!Number.isSafeInteger(page) || page < 1) throw AppError.validation('page', 'must be an integer >= 1');
  if (!Number.isSafeInteger(limit) || limit < 1) throw AppError.validation('limit', 'must be an integer >= 1');
  if ((page - 1) * limit >= OFFSET_ROW_CAP) {
    const lastPage = Math.ceil(OFFSET_ROW_CAP / limit);
    throw AppError.validation(
      'page',
      `offset paging is capped at ${OFFSET_ROW_CAP} rows, so with limit ${limit} the last page is ${lastPage}; use the cursor to go further where the endpoint offers one`,
    );
  }
}

/** Rows to skip for a 1-based page. Pure arithmetic: pair it with assertWithinOffsetCap. */
export function offsetOf(page: number, limit: number): number {
  return (page - 1) * limit;
}
