import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';

export class CreateApiKeyDto {
  @ApiProperty({ example: 'trading-bot', description: '1 to 64 characters after trimming; letters, digits, spaces and . _ - :', minLength: 1, maxLength: 64 })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @Matches(/^[\p{L}\p{N} ._:-]+$/u, { message: 'name may hold letters, digits, spaces and . _ - : only' })
  name: string;
}

export class ApiKeyDto {
  @ApiProperty({ example: '3f1c8a8e-5d0b-4f7e-9a51-2b0c7f2f9a10' })
  id: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'trading-bot', description: 'null for keys issued by the ops CLI' })
  name: string | null;

  @ApiProperty({ example: 'mdk_3fA9x0', description: 'The leading characters of the key, as /account shows them' })
  prefix: string;

  @ApiProperty({ example: '2026-11-25T12:00:00.000Z' })
  createdAt: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: null,
    description: 'Last call with the key, to within API_KEY_TOUCH_INTERVAL_MS (10 s); null if never used',
  })
  lastUsedAt: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: null })
  revokedAt: string | null;

  @ApiProperty({ enum: ['active', 'revoked'], example: 'active' })
  status: 'active' | 'revoked';
}

export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ description: 'The whole key, shown this once: it is stored only as a hash. Send it as x-api-key.' })
  key: string;
}
