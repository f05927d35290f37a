import { ApiProperty } from '@nestjs/swagger';

export class MidsDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { BTC: '96666.5', HYPE: '25.01', 'xyz:TSLA': '412.3' },
    description:
      'Mid price (decimal string) of every listed coin: spot token symbols, perp symbols and `dex:`-prefixed HIP-3 symbols. ' +
      'The keys are the canonical spellings of the valid `coin` values elsewhere. Refreshed by the mids poller; served from a cache of at most about 1 s.',
  })
  mids: Record<string, string>;
}
