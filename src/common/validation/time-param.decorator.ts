import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, ValidateBy } from 'class-validator';

/** ISO-8601 with a date, and a time with a zone when it has a time (`2026-11-01`, `2026-11-01T12:00:00Z`, `...+02:00`). */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;
const UNIX_MS = /^\d{1,15}$/;
/** Either form, as the OpenAPI pattern of a time parameter (the calendar check, no 2026-02-30, is beyond a pattern). */
export const TIME_PARAM_PATTERN = `^(?:${UNIX_MS.source.slice(1, -1)}|${ISO_8601.source.slice(1, -1)})$`;

/** The instant a time parameter names (ISO-8601 or Unix milliseconds), or undefined when it names none. */
export function parseTimeParam(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const date = UNIX_MS.test(value) ? new Date(Number(value)) : ISO_8601.test(value) && isCalendarDate(value) ? new Date(value) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

/** Date parsing rolls 2026-02-30 over into March; a date that does not exist is refused instead. */
function isCalendarDate(value: string): boolean {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * An optional time as ISO-8601 or Unix milliseconds. A date without a time is midnight UTC; a time needs its
 * zone, so no client's local clock decides what it means. Anything else is 400 naming the field.
 */
export function TimeParam(description: string) {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'string',
      pattern: TIME_PARAM_PATTERN,
      description: `${description} ISO-8601 (with a zone when it has a time) or Unix milliseconds.`,
      example: undefined,
    }),
    IsOptional(),
    ValidateBy({
      name: 'isTimeParam',
      validator: {
        validate: (value: unknown) => parseTimeParam(value) !== undefined,
        defaultMessage: (args) => `${args?.property} must be an ISO-8601 time with a zone (2026-11-01T00:00:00Z) or Unix milliseconds`,
      },
    }),
  );
}
