/** Response descriptions shared by the /hl routes (docs/decisions.md, "Exchange-chain analytics"). */

export const NO_SNAPSHOT =
  'Before the first snapshot is published the route answers 502 MARKET_UPSTREAM_ERROR `no snapshot published yet`: retry with backoff.';

export const RANK_PAGING =
  'Rows come from the current snapshot, ranked 1..total (ties broken by address). limit is 1-500 (default 100). ' +
  'Offset paging stops at 10,000 rows ((page - 1) × limit ≥ 10,000 is 400 naming `page`); nextCursor continues without a cap. ' +
  'A cursor is bound to the endpoint, coin, sort, order and limit (anything else is 400 naming `cursor`); its position is a rank, ' +
  'so a cursor minted before a snapshot refresh resumes at the same rank of the new snapshot. With a cursor, page is ignored and ' +
  'the response\'s page is the page those rows correspond to.';

export const OFFSET_PAGING = 'Offset paging only, capped at 10,000 rows ((page - 1) × limit ≥ 10,000 is 400 naming `page`).';
