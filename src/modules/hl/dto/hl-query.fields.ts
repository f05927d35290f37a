import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { RequiredParam } from '../../../common/validation/required-param.decorator';
import { ADDRESS_PATTERN, SORT_ORDERS } from '../hl-params';

const COIN_MAX_LENGTH = 64;
const COIN_RULE =
  'Matched exactly, else case-insensitively, and answered in the canonical spelling of /hl/prices/mids (`btc` → `BTC`, `XYZ:tsla` → `xyz:TSLA`). ' +
  'An unlisted coin is 400 VALIDATION_ERROR `coin: unknown coin "FOO"`.';

/**
 * A required coin of one market (which one is checked against the listed coins by the service). The
 * example is what Swagger UI's "Try it out" sends, so it must be a coin the demo lists.
 */
export function CoinParam(description: string, example: string) {
  return applyDecorators(
    ApiProperty({ description: `${description} ${COIN_RULE}`, example, maxLength: COIN_MAX_LENGTH }),
    RequiredParam(),
    IsString(),
    IsNotEmpty(),
    MaxLength(COIN_MAX_LENGTH),
  );
}

/** `order`: desc (default) or asc, exactly as spelled. */
export function OrderParam(description: string) {
  return applyDecorators(
    ApiPropertyOptional({ enum: [...SORT_ORDERS], default: 'desc', description }),
    IsOptional(),
    IsIn([...SORT_ORDERS]),
  );
}

/** A closed set of values, exactly as spelled; anything else is 400 naming the field. */
export function EnumParam(values: readonly string[], defaultValue: string, description: string) {
  return applyDecorators(
    ApiPropertyOptional({ enum: [...values], default: defaultValue, description }),
    IsOptional(),
    IsIn([...values]),
  );
}

/**
 * Single-wallet filter. Addresses are stored lowercase (as the exchange reports them), so the input is lowercased.
 * No `example`: Swagger UI's "Try it out" fills it in and sends it, which narrows the list to a wallet that holds nothing.
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
