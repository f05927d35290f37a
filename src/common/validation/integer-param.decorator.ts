import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy, ValidationArguments } from 'class-validator';
import { RequiredParam } from './required-param.decorator';

export interface IntegerParamOptions {
  min: number;
  /** Inclusive; omitted from the OpenAPI document when not given (the value still has to be a safe integer). */
  max?: number;
  /**
   * The OpenAPI `maximum` when the real bound depends on another parameter (page on the offset cap): the
   * largest value valid whatever the others are. Documented only; `max` is what is enforced.
   */
  documentedMax?: number;
  /** Documented default; the DTO's initializer is what applies it. */
  default?: number;
  description: string;
  /** Required parameters get `is required` when missing and an example for Swagger UI to send. */
  required?: boolean;
  example?: number;
}

const DIGITS = /^[0-9]+$/;
const SIGNED_DIGITS = /^-[0-9]+$/;

/**
 * The integer a query value spells in plain decimal digits (a leading '-' too when `allowNegative`),
 * else the value unchanged, for the validator to name what is wrong with it. Number() alone would take
 * `0x10`, `1e2`, `+1`, `' 5'` and `''` (as 0), none of which a client means as a decimal integer.
 */
export function parseStrictInteger(value: unknown, allowNegative: boolean): unknown {
  if (typeof value !== 'string') return value;
  return DIGITS.test(value) || (allowNegative && SIGNED_DIGITS.test(value)) ? Number(value) : value;
}

/**
 * An integer query parameter: strict decimal parsing, one validator whose single message says what is
 * wrong (given twice, not an integer, negative, out of range), and `type: integer` in OpenAPI. One
 * validator rather than IsInt + Min + Max because class-validator runs stacked decorators bottom-up, so
 * `limit=abc` failed Max first and was told it was too large.
 */
export function IntegerParam(options: IntegerParamOptions) {
  const { min, max = Number.MAX_SAFE_INTEGER, required = false, description, example } = options;
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min > max) {
    throw new Error(`IntegerParam: need safe integers min <= max, got ${JSON.stringify(options)}`);
  }
  const allowNegative = min < 0;
  const schema = {
    type: 'integer',
    minimum: min,
    ...(options.max === undefined && options.documentedMax === undefined ? {} : { maximum: Math.min(max, options.documentedMax ?? max) }),
    ...(options.default === undefined ? {} : { default: options.default }),
    ...(example === undefined ? {} : { example }),
    description,
  } as const;
  return applyDecorators(
    required ? ApiProperty(schema) : ApiPropertyOptional(schema),
    required ? RequiredParam() : IsOptional(),
    Transform(({ value }) => parseStrictInteger(value, allowNegative)),
    ValidateBy({
      name: 'integerParam',
      constraints: [min, max],
      validator: {
        validate: (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max,
        defaultMessage: ({ property, value }: ValidationArguments) => `${property} ${integerProblem(value, min, max)}`,
      },
    }),
  );
}

function integerProblem(value: unknown, min: number, max: number): string {
  if (Array.isArray(value)) return 'given more than once';
  if (typeof value === 'string' && SIGNED_DIGITS.test(value)) return 'must not be negative';
  // Infinity is a digit string too long for a double: an integer, just too large.
  if (typeof value !== 'number' || Number.isNaN(value) || (Number.isFinite(value) && !Number.isInteger(value))) return 'must be an integer';
  return value < min ? `must not be less than ${min}` : `must not be greater than ${max}`;
}
