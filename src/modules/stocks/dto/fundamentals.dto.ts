import { ApiProperty } from '@nestjs/swagger';
import { ApiNullableRefProperty } from '../../../common/dto/nullable-ref';
import { SectionErrorDto, StockAssetDto, StockSourceDto } from './stock-blocks.dto';

const NUMBER_OR_NULL = (example: number, description: string) => ({ type: 'number', nullable: true, example, description }) as const;

export class StockQuoteDto {
  @ApiProperty(NUMBER_OR_NULL(266.2, 'Last price, listing currency')) price: number | null;
  @ApiProperty(NUMBER_OR_NULL(266.2, 'The price in USD at the latest FX quote')) priceUsd: number | null;
  @ApiProperty(NUMBER_OR_NULL(-1.1, 'Change since the previous close, listing currency')) change: number | null;
  @ApiProperty(NUMBER_OR_NULL(-0.41, 'Percent change since the previous close')) changePercent: number | null;
  @ApiProperty(NUMBER_OR_NULL(270, 'Session high')) high: number | null;
  @ApiProperty(NUMBER_OR_NULL(265.5, 'Session low')) low: number | null;
  @ApiProperty({ type: 'string', nullable: true, example: '2026-11-24T21:00:00.000Z', description: 'Time of the price' }) timestamp: string | null;
}

export class OverviewMetricDto {
  @ApiProperty({ example: 'marketCap' }) key: string;
  @ApiProperty({ example: 'Market cap' }) label: string;
  @ApiProperty({ example: '3950408000000', description: 'Decimal string; money in the listing currency' }) value: string;
  @ApiProperty({ example: '3950408000000', description: 'Money converted to USD; empty for ratios and counts, or without an FX quote' }) valueUsd: string;
}

export class AnalystRatingDto {
  @ApiProperty({ example: 'Buy' }) label: string;
  @ApiProperty({ example: '24' }) value: string;
}

export class FinancialStatementDto {
  @ApiProperty({ example: '2025-09-30', description: 'YYYY-MM-DD end of the period' }) periodEnd: string;
  @ApiProperty({ example: 'FY2025', description: '`FY<year>` for a fiscal year, `Q<n> FY<year>` for a quarter' }) fiscalPeriod: string;
  @ApiProperty({ enum: ['annual', 'quarterly'], example: 'annual' }) periodType: string;
  @ApiProperty({ type: 'string', nullable: true, example: 'USD' }) currency: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { totalRevenue: '416161000000', netIncome: '112010000000' },
    description: 'Line items by key, decimal strings in `currency`; a line the vendor does not report is absent',
  })
  lineItems: Record<string, string>;
}

export class FinancialsDto {
  @ApiProperty({ type: [FinancialStatementDto], description: 'Newest period end first; an annual and a quarterly entry ending the same day, annual first' })
  incomeStatement: FinancialStatementDto[];
  @ApiProperty({ type: [FinancialStatementDto] }) balanceSheet: FinancialStatementDto[];
  @ApiProperty({ type: [FinancialStatementDto] }) cashFlowStatement: FinancialStatementDto[];
}

export class FundamentalsOverviewDto {
  @ApiNullableRefProperty(StockQuoteDto, { description: 'null when the quote call failed (see errors)' }) quote: StockQuoteDto | null;
  @ApiProperty({ type: [OverviewMetricDto] }) overviewMetrics: OverviewMetricDto[];

  @ApiProperty({
    type: [AnalystRatingDto],
    description: 'The current month: Strong Buy, Buy, Hold, Sell, Strong Sell (counts), then Consensus, Target Price and Analysts when known',
  })
  analystRatings: AnalystRatingDto[];
}

export class FundamentalsDto {
  @ApiProperty({ type: StockAssetDto }) asset: StockAssetDto;
  @ApiProperty({ type: StockSourceDto }) source: StockSourceDto;
  @ApiProperty({ type: FundamentalsOverviewDto }) overview: FundamentalsOverviewDto;
  @ApiProperty({ type: FinancialsDto }) financials: FinancialsDto;
  @ApiProperty({ type: [SectionErrorDto], description: 'One entry per section the vendor could not give; that section is empty' }) errors: SectionErrorDto[];
}
