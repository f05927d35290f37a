import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { PageQuery } from '../../../common/pagination/page-query.dto';
import { WalletAddress } from '../../../common/validation/wallet-address.decorator';
import { MAX_OPC_FEE_TENTHS_BPS, OPC_SUBDOMAIN_PATTERN } from '../opc-rules';

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** The style settings a branded frontend reads; unknown keys are refused, so a typo does not pass unnoticed. */
export class OpcStyleConfigDto {
  @ApiPropertyOptional({ example: '#0ea5e9' })
  @IsOptional()
  @Matches(HEX_COLOR, { message: 'styleConfig.primaryColor must be a #RRGGBB colour' })
  primaryColor?: string;

  @ApiPropertyOptional({ example: '#f59e0b' })
  @IsOptional()
  @Matches(HEX_COLOR, { message: 'styleConfig.accentColor must be a #RRGGBB colour' })
  accentColor?: string;

  @ApiPropertyOptional({ enum: ['dark', 'light'], example: 'dark' })
  @IsOptional()
  @IsIn(['dark', 'light'])
  theme?: 'dark' | 'light';
}

export class OpcConfigDto {
  @ApiProperty({ example: '3f1c9a52-8d0e-4b7a-9c61-2f4e5d6a7b8c' })
  id: string;

  @ApiProperty({ example: '0x5e9ee1089755c3435139848e47e6635505d5a13a' })
  ownerAddress: string;

  @ApiProperty({ example: 'Desk A Trading' })
  name: string;

  @ApiProperty({ example: 'desk-a', description: 'A DNS label, unique among OPCs ignoring case' })
  subdomain: string;

  @ApiProperty({ example: 'https://desk-a.example/logo.png', description: 'An https URL, or empty' })
  logoUrl: string;

  @ApiProperty({ type: OpcStyleConfigDto })
  styleConfig: OpcStyleConfigDto;

  @ApiProperty({
    type: 'integer',
    example: 25,
    description: `The builder fee the frontend attaches, in tenths of a basis point (0-${MAX_OPC_FEE_TENTHS_BPS}: Hyperliquid’s perp cap, 0.1 %)`,
  })
  frontendFeeTenthsBps: number;

  @ApiProperty({
    example: '0x1924b8561eef20e70ede628a296175d358be80e5',
    description: 'The builder address the frontend’s orders carry; its fills are the OPC’s revenue',
  })
  builderAddress: string;

  @ApiProperty({ example: true })
  isActive: boolean;

  @ApiProperty({ example: '2026-11-01T00:00:00.000Z', description: 'When the OPC was first activated (creation time until then)' })
  billingAnchorAt: string;
}

/** PUT /api/v1/opc: the whole configuration (created on the first PUT). */
export class PutOpcDto {
  @ApiProperty({ example: 'Desk A Trading', minLength: 1, maxLength: 64 })
  @Transform(trim)
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  name: string;

  @ApiProperty({ example: 'desk-a', description: 'Lower-case letters, digits and inner hyphens, 3-63 characters; not a reserved name' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsString()
  @Matches(OPC_SUBDOMAIN_PATTERN, { message: 'subdomain must be a DNS label: 3-63 lower-case letters, digits and inner hyphens' })
  subdomain: string;

  @ApiPropertyOptional({ example: 'https://desk-a.example/logo.png', default: '' })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(2048)
  @Matches(/^(https:\/\/[^\s]+)?$/, { message: 'logoUrl must be an https URL or empty' })
  logoUrl?: string;

  @ApiPropertyOptional({ type: OpcStyleConfigDto, default: {} })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => OpcStyleConfigDto)
  styleConfig?: OpcStyleConfigDto;

  @ApiProperty({ type: 'integer', example: 25, minimum: 0, maximum: MAX_OPC_FEE_TENTHS_BPS })
  @IsInt()
  @Min(0)
  @Max(MAX_OPC_FEE_TENTHS_BPS)
  frontendFeeTenthsBps: number;

  @ApiProperty({ example: '0x1924b8561eef20e70ede628a296175d358be80e5' })
  @WalletAddress()
  builderAddress: string;
}

export class OpcRevenueEntryDto {
  @ApiProperty({ example: '512' })
  id: string;

  @ApiProperty({ example: '41.250312', description: 'Builder fees the OPC’s builder was paid on the period’s fills, in reward-token units' })
  amount: string;

  @ApiProperty({ example: 'USDC' })
  tokenSymbol: string;

  @ApiProperty({ example: '2026-11-20T00:00:00.000Z', description: 'A UTC day: periods are days' })
  periodStart: string;

  @ApiProperty({ example: '2026-11-21T00:00:00.000Z' })
  periodEnd: string;

  @ApiProperty({ example: '2026-11-21T00:05:00.000Z' })
  createdAt: string;
}

export class OpcRevenueSummaryDto {
  @ApiProperty({ example: '1250.5', description: 'Every revenue entry’s amount' })
  totalRevenue: string;

  @ApiProperty({ example: '1000', description: 'Amounts of claimed rounds' })
  totalClaimed: string;

  @ApiProperty({ example: '250.5', description: 'Revenue not claimed yet: published unclaimed rounds plus what the next round will close' })
  pendingClaimable: string;

  @ApiProperty({ example: 'USDC' })
  tokenSymbol: string;
}

export class OpcClaimableDto {
  @ApiProperty({ example: '200', description: 'Unclaimed amounts of published rounds: what a claim now pays' })
  claimable: string;

  @ApiProperty({ example: 'USDC' })
  tokenSymbol: string;
}

export class OpcRevenueQueryDto extends PageQuery({ defaultLimit: 20, maxLimit: 100 }) {}
