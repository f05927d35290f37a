import { BuilderFill } from './hyperliquid.types';

export const BUILDER_FILLS_SOURCE = Symbol('BUILDER_FILLS_SOURCE');

export interface DailyBuilderFillsParams {
  /** 0x address, any case. */
  builder: string;
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  signal?: AbortSignal;
}

/** One builder's fills of one UTC day, or the news that the day's file is not out yet. */
export type BuilderFillsDay =
  { status: 'published'; builder: string; day: string; fills: BuilderFill[] } | { status: 'not-published'; builder: string; day: string };

/**
 * The fills that carried a builder's code, one UTC day at a time: the source of truth for what a builder
 * earned and for whom. `builder` in the answer is lower-cased; `day` is as asked. A day the upstream has not
 * published yet is an answer (`not-published`), not an error: ask again later. Anything else that goes wrong
 * (HTTP, timeout, a body that is not the expected file) is an UpstreamError; a bad `builder` or `day` is a
 * RangeError.
 */
export interface BuilderFillsSource {
  readonly name: string;
  dailyFills(params: DailyBuilderFillsParams): Promise<BuilderFillsDay>;
}
