import { offsetOf } from './offset-cap';

/** Pagination envelope placed inside `data` by every paged endpoint. */
export interface Page<T> {
  items: T[];
  /** 1-based page number that was served. */
  page: number;
  /** Page size actually used (the endpoint default when the client sent none). */
  limit: number;
  /** Row count of the whole result, or null when the source cannot count cheaply. */
  total: number | null;
  /** Always present, so clients never have to infer it from total or from a short page. */
  hasMore: boolean;
}

/** Envelope of cursor-capable endpoints: nextCursor is null on the last page. */
export interface CursorPage<T> extends Page<T> {
  nextCursor: string | null;
}

/**
 * Page for sources that know their total. total is a number on purpose: uncounted sources must go
 * through toPageFromProbe, otherwise hasMore would be a guess.
 */
export function toPage<T>(args: { items: T[]; page: number; limit: number; total: number }): Page<T> {
  const { items, page, limit, total } = args;
  return { items, page, limit, total, hasMore: offsetOf(page, limit) + items.length < total };
}

/**
 * Page for sources without a count: the caller fetched limit + 1 rows; the extra probe row only proves a
 * next page exists and is dropped from the response.
 */
export function toPageFromProbe<T>(args: { rows: T[]; page: number; limit: number }): Page<T> {
  const { rows, page, limit } = args;
  return { items: rows.slice(0, limit), page, limit, total: null, hasMore: rows.length > limit };
}
