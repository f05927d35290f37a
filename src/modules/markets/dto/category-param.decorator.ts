import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches } from 'class-validator';
import { CATEGORY_SLUG } from '../asset-types';

const MAX_SLUG_LENGTH = 64;

/**
 * The optional `category` filter of `/assets` and `/stock/overview`: a slug, and its OpenAPI schema saying so.
 * Whether a listed asset carries it is the service's check (AssetsService.assertKnownCategory).
 */
export function CategoryParam(description: string) {
  return applyDecorators(
    ApiPropertyOptional({
      pattern: CATEGORY_SLUG.source,
      minLength: 1,
      maxLength: MAX_SLUG_LENGTH,
      description: `${description} A slug no listed asset of the route carries is 400 naming \`category\`, with the known slugs.`,
    }),
    IsOptional(),
    IsString(),
    Length(1, MAX_SLUG_LENGTH),
    Matches(CATEGORY_SLUG, { message: 'must be a slug: lowercase letters and digits joined by hyphens' }),
  );
}
