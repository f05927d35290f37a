/** OpenAPI text and responses shared by the /hl routes (docs/decisions.md, "Exchange-chain analytics"). */
import { ApiErrorResponse } from '../../common/decorators/api-envelope.decorator';
import { ErrorCode } from '../../common/errors/error-code';

/** The 502 of every route that reads a snapshot (HlCatalog.requireSnapshot); /hl/prices/mids reads none. */
export const ApiNoSnapshotResponse = () =>
  ApiErrorResponse(
    502,
    [ErrorCode.MARKET_UPSTREAM_ERROR],
    'No snapshot published yet (a fresh install, before the first snapshot job finishes); msg is `no snapshot published yet`: retry with backoff',
  );

export const RANK_PAGING =
  'Rows come from the current snapshot, ranked 1..total (ties broken by address). limit is 1-500 (default 100). ' +
  'Offset paging stops at 10,000 rows ((page - 1) × limit ≥ 10,000 is 400 naming `page`); nextCursor continues without a cap. ' +
  'A cursor is bound to the endpoint, coin, sort, order and limit (anything else is 400 naming `cursor`); its position is a rank, ' +
  'so a cursor minted before a snapshot refresh resumes at the same rank of the new snapshot. With a cursor, page is ignored and ' +
  "the response's page is the page those rows correspond to.";

export const OFFSET_PAGING = 'Offset paging only, capped at 10,000 rows ((page - 1) × limit ≥ 10,000 is 400 naming `page`).';

export const TRENDING_PRICE_CHANGE =
  'priceChange is the percent change of price against the mid the service sampled `period` ago. Until its samples reach ' +
  "that far back (the first hours of a fresh install), 24h compares with the exchange's previous-day price (prevDayPx) and " +
  'the other periods with the oldest sample inside the period, so the change then covers a shorter window; it is 0 only ' +
  'when the price did not move (or in the first minute, before a second sample exists).';

/** The second half of every /hl data time's description (updatedAt, trending's snapshot_time): what its age means. */
export const DATA_AGE =
  'It does not move while the exchange cannot be read: a snapshot republished from the same reads keeps it, so its age is how ' +
  'long the answer has gone without fresh data.';
