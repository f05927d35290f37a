import { AppError } from '../../common/errors/app-error';
import { parseTimeParam } from '../../common/validation/time-param.decorator';

/** The widest window one /account/fees request may cover (contract 4.6). */
export const FEES_MAX_RANGE_DAYS = 31;
const MAX_RANGE_MS = FEES_MAX_RANGE_DAYS * 86_400_000;

export interface TimeWindow {
  start: Date;
  end: Date;
}

/**
 * The [start, end) window of a fees request: both given, as given; one given, the other FEES_MAX_RANGE_DAYS
 * away (an end no later than now); none, the last FEES_MAX_RANGE_DAYS days. An end before the start or a
 * window wider than the limit is 400 naming the field to change.
 */
export function feeWindow({ startTime, endTime }: { startTime?: string; endTime?: string }, now = new Date()): TimeWindow {
  const start = parseTimeParam(startTime);
  const givenEnd = parseTimeParam(endTime);
  const end = givenEnd ?? (start ? new Date(Math.min(now.getTime(), start.getTime() + MAX_RANGE_MS)) : now);
  const from = start ?? new Date(end.getTime() - MAX_RANGE_MS);
  if (end.getTime() < from.getTime()) throw AppError.validation('endTime', `must not be before startTime (${from.toISOString()})`);
  if (end.getTime() - from.getTime() > MAX_RANGE_MS) {
    throw AppError.validation(
      'endTime',
      `the window may cover at most ${FEES_MAX_RANGE_DAYS} days (startTime ${from.toISOString()}, endTime ${end.toISOString()})`,
    );
  }
  return { start: from, end };
}
