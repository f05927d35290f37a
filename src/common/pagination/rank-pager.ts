import { Injectable } from '@nestjs/common';
import { CursorBinding, CursorCodec } from './cursor-codec';
import { assertWithinOffsetCap, offsetOf } from './offset-cap';
import { CursorPageQueryDto } from './page-query.dto';
import { CursorPage } from './page.dto';
import { SortOrder } from './sort-order';

/**
 * The rows of one request as a rank range of a table ranked 1..total (1 = first in DESC order): rows with
 * `rank > bound` ascending for desc, `rank <= bound` descending for asc. Either form walks the
 * (list, rank) index from a known point (e.g. (coin, rank)), so no request ever uses OFFSET, however deep.
 */
export interface RankWindow {
  op: '>' | '<=';
  bound: number;
  direction: 'ASC' | 'DESC';
  limit: number;
}

/** `start` rows already returned → the next `limit` ranks; asc counts from the bottom (rank total - start down). */
export function rankWindow({ start, limit, order, total }: { start: number; limit: number; order: SortOrder; total: number }): RankWindow {
  return order === 'desc' ? { op: '>', bound: start, direction: 'ASC', limit } : { op: '<=', bound: Math.max(total - start, 0), direction: 'DESC', limit };
}

/**
 * Page/cursor arithmetic of endpoints that list a ranked table (contract 4.1, cursor rules).
 * A cursor's position is its rank: how many rows the client has already received. Because ranks are
 * recomputed by every snapshot, a cursor minted before a refresh resumes at the same rank in the new one.
 */
@Injectable()
export class RankPager {
  constructor(private readonly cursors: CursorCodec) {}

  /** Rows already returned before this request: from the cursor (page ignored, no cap) or from page and limit (capped). */
  start(query: CursorPageQueryDto, binding: CursorBinding): number {
    if (query.cursor !== undefined) return this.cursors.decode(query.cursor, binding).rank;
    assertWithinOffsetCap(query.page, query.limit);
    return offsetOf(query.page, query.limit);
  }

  /**
   * The flat page around rows fetched for `start`. A short page ends the walk even if `total` says
   * otherwise, so a client can never loop on a cursor that makes no progress.
   */
  page<T>({ items, start, limit, total, binding }: { items: T[]; start: number; limit: number; total: number; binding: CursorBinding }): CursorPage<T> {
    return { items, ...this.position({ count: items.length, start, limit, total, binding }) };
  }

  /** The page's fields but its items, for `count` rows fetched (rows kept as JSON text, see JsonText.spliced). */
  position({
    count,
    start,
    limit,
    total,
    binding,
  }: {
    count: number;
    start: number;
    limit: number;
    total: number;
    binding: CursorBinding;
  }): Omit<CursorPage<never>, 'items'> {
    const rowsSoFar = start + count;
    const hasMore = count === limit && rowsSoFar < total;
    return {
      // With a cursor the page is derived from the rank, so it still tells the client where it is.
      page: Math.floor(start / limit) + 1,
      limit,
      total,
      hasMore,
      nextCursor: hasMore ? this.cursors.encode(binding, { rank: rowsSoFar, key: [] }) : null,
    };
  }
}
