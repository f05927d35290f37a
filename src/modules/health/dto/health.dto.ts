import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';

export class DependencyCheckDto {
  @ApiProperty({ enum: ['up'], example: 'up', description: 'A dependency that is down makes the probe answer 503 instead' })
  status: 'up';

  @ApiPropertyOptional({ enum: ['redis', 'memory'], example: 'redis', description: 'Which KV store answered (kv only)' })
  kind?: 'redis' | 'memory';
}

export class LivenessDto {
  @ApiProperty({ enum: ['ok'], example: 'ok' })
  status: 'ok';
}

@ApiExtraModels(DependencyCheckDto)
export class ReadinessDto {
  @ApiProperty({ enum: ['ok'], example: 'ok' })
  status: 'ok';

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(DependencyCheckDto) },
    example: { database: { status: 'up' }, kv: { status: 'up', kind: 'redis' } },
    description: 'One entry per dependency checked: `database` and `kv`',
  })
  checks: Record<string, DependencyCheckDto>;
}
