import { ApiProperty } from '@nestjs/swagger';

export class VipSubscriptionDto {
  @ApiProperty({ enum: ['Free', 'Pro', 'Max'], example: 'Pro' })
  tier: string;

  @ApiProperty({ example: 'active' })
  status: string;

  @ApiProperty({ type: 'string', nullable: true, example: null })
  pendingTier: string | null;

  @ApiProperty({ example: true, description: 'Paid tiers renew every period; Free has nothing to renew' })
  autoRenew: boolean;

  @ApiProperty({ example: '2026-12-01T00:00:00.000Z', description: 'End of the current monthly credit period' })
  currentPeriodEnd: string;

  @ApiProperty({ type: 'string', nullable: true, example: null })
  cancelledAt: string | null;

  @ApiProperty({ example: false })
  requiresPayment: boolean;
}

export class ApiRateLimitDto {
  @ApiProperty({ example: 200 })
  rpm: number;
}

export class VipFeaturesDto {
  @ApiProperty({ example: true })
  advancedCharts: boolean;

  @ApiProperty({ example: true })
  alertsEnabled: boolean;
}

export class VipEntitlementsDto {
  @ApiProperty({ enum: ['Free', 'Pro', 'Max'], example: 'Pro' })
  tier: string;

  @ApiProperty({ example: '0.1', description: 'Builder-fee discount as a fraction (decimal string)' })
  feeDiscount: string;

  @ApiProperty({ type: ApiRateLimitDto })
  apiRateLimit: ApiRateLimitDto;

  @ApiProperty({ type: VipFeaturesDto })
  features: VipFeaturesDto;
}
