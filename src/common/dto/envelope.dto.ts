import { ApiProperty } from '@nestjs/swagger';
import { ErrorCode } from '../errors/error-code';

/** The success envelope of contract part 2.1; `data` is filled in per route by @ApiEnvelope. */
export class EnvelopeDto {
  @ApiProperty({ example: '0', description: '"0" on success' })
  code: string;

  @ApiProperty({ example: 'success' })
  msg: string;
}

export class ErrorEnvelopeDto {
  @ApiProperty({ enum: ErrorCode, example: ErrorCode.VALIDATION_ERROR })
  code: string;

  @ApiProperty({ example: 'limit: must not be greater than 100', description: 'Names the offending field on validation errors' })
  msg: string;

  // OpenAPI 3.0 has no null type: a nullable schema whose only value is null says "always null".
  @ApiProperty({ type: 'object', additionalProperties: false, nullable: true, enum: [null], example: null, description: 'Always null on errors' })
  data: null;
}

export class PageFieldsDto {
  @ApiProperty({ example: 1, description: '1-based page number' })
  page: number;

  @ApiProperty({ example: 20, description: 'Page size used' })
  limit: number;

  @ApiProperty({ type: 'integer', nullable: true, example: null, description: 'Total rows when the source counts them, else null' })
  total: number | null;

  @ApiProperty({ example: true, description: 'Paging continues while true' })
  hasMore: boolean;
}
