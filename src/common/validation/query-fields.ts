import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { SORT_ORDERS } from '../pagination/sort-order';
import { ADDRESS_PATTERN } from './address';
import { RequiredParam } from './required-param.decorator';

/** Longest symbol a query may name: longer than any listed one, short enough that a lookup costs nothing. */
const SYMBOL_MAX_LENGTH = 64;

export interface SymbolParamOptions {
  description: string;
  /** What Swagger UI's "Try it out" sends, so it must be a symbol the demo lists. */
  example: string;
  /** How the area matches the symbol against its listed ones, appended to the description. */
  rule: string;
}

/**
 * A required symbol (coin, asset, ticker). Only its shape is checked here; whether it is listed is the
 * service's call, since the listed set changes at runtime.
 */
export function SymbolParam({ description, example, rule }: SymbolParamOptions) {
  return applyDecorators(
    ApiProperty({ description: `${description} ${rule}`, example, minLength: 1, maxLength: SYMBOL_MAX_LENGTH }),
    RequiredParam(),
    IsString(),
    IsNotEmpty(),
    MaxLength(SYMBOL_MAX_LENGTH),
  );
}

/** `order`: desc (default) or asc, exactly as spelled. */
export function OrderParam(description: string) {
  return applyDecorators(ApiPropertyOptional({ enum: [...SORT_ORDERS], default: 'desc', description }), IsOptional(), IsIn([...SORT_ORDERS]));
}

/** A closed set of values, exactly as spelled; anything else is 400 naming the field. */
export function EnumParam(values: readonly string[], defaultValue: string, description: string) {
  return applyDecorators(ApiPropertyOptional({ enum: [...values], default: defaultValue, description }), IsOptional(), IsIn([...values]));
}

/**
 * Single-wallet filter, any case: addresses are stored lowercase (as the exchanges report them), so the
 * service lowercases the input before comparing. No `example`: Swagger UI's "Try it out" fills it in and
 * sends it, which narrows the list to a wallet that holds nothing.
 */
export function AddressParam(description: string) {
  return applyDecorators(
    ApiPropertyOptional({
      description: `${description} 42-character 0x-prefixed hex wallet, case-insensitive.`,
      pattern: ADDRESS_PATTERN.source,
    }),
    IsOptional(),
    Matches(ADDRESS_PATTERN, { message: 'must be a 42-character 0x-prefixed hex address' }),
  );
}
