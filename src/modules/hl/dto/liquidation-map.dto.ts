import { ApiProperty } from '@nestjs/swagger';

export class LiquidationBinDto {
  @ApiProperty({ example: 'BTC' })
  coin: string;

  @ApiProperty({ type: 'integer', example: 0, description: '0-based bin index, 0 = lowest prices (0..39)' })
  priceBinIndex: number;

  @ApiProperty({ example: 48333.25, description: 'Lower price edge of the bin (inclusive)' })
  priceBinStart: number;

  @ApiProperty({ example: 50750, description: 'Upper price edge of the bin (exclusive, except for the last bin)' })
  priceBinEnd: number;

  @ApiProperty({ example: 1250000.5, description: 'Sum of the absolute position value (USD) of the positions whose liquidation price falls in the bin' })
  liquidationValue: number;

  @ApiProperty({ type: 'integer', example: 12, description: 'Number of those positions' })
  positionsCount: number;

  @ApiProperty({
    type: 'integer',
    enum: [0, 1, 2, 3, 4],
    example: 3,
    description:
      'Position-size segment contributing the most liquidation value in the bin: 1 = under $10k, 2 = $10k to under $100k, ' +
      '3 = $100k to under $1M, 4 = $1M and more (ties go to the larger segment); 0 for an empty bin',
  })
  mostImpactedSegment: number;
}

export class LiquidationMapDto {
  @ApiProperty({ example: 'BTC', description: 'Canonical spelling of the requested coin' })
  coin: string;

  @ApiProperty({
    type: [LiquidationBinDto],
    description: '40 equal-width bins spanning [0.5 × mark, 1.5 × mark], in price order; empty when the coin has no mark price',
  })
  heatmap: LiquidationBinDto[];
}
