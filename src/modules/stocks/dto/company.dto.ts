import { ApiProperty } from '@nestjs/swagger';
import { SectionErrorDto, StockAssetDto, StockSourceDto } from './stock-blocks.dto';

const TEXT = (example: string, description?: string) => ({ example, ...(description ? { description } : {}) });

export class ExecutiveDto {
  @ApiProperty(TEXT('Timothy D. Cook')) name: string;
  @ApiProperty(TEXT('CEO & Director')) role: string;
  @ApiProperty(TEXT('64', 'Empty when unknown')) age: string;
  @ApiProperty(TEXT('', 'Year in office since; empty: the vendor does not say')) since: string;
  @ApiProperty(TEXT('16520856', 'Total pay, listing currency; empty when unknown')) compensation: string;
  @ApiProperty(TEXT('16520856', 'Total pay in USD; empty when unknown')) compensationUsd: string;
}

export class ShareholderDto {
  @ApiProperty(TEXT('Vanguard Group Inc')) name: string;
  @ApiProperty(TEXT('0.0931', 'Fraction of shares outstanding held')) stake: string;
  @ApiProperty(TEXT('0.012', 'Fractional change of the position since the previous report; empty when unknown')) change: string;
  @ApiProperty(TEXT('2026-09-30', 'YYYY-MM-DD; empty when unknown')) reportedAt: string;
}

export class FundHolderDto {
  @ApiProperty(TEXT('Vanguard Total Stock Market Index Fund')) name: string;
  @ApiProperty(TEXT('0.0296', 'Fraction of shares outstanding held')) stake: string;
  @ApiProperty(TEXT('-0.004', 'Fractional change since the previous report; empty when unknown')) change: string;
  @ApiProperty(TEXT('', "Share of the fund's own assets; empty: the vendor does not say")) weight: string;
}

export class InsiderTransactionDto {
  @ApiProperty(TEXT('COOK TIMOTHY D')) name: string;
  @ApiProperty(TEXT('2026-10-02', 'YYYY-MM-DD')) transactionDate: string;
  @ApiProperty(TEXT('', 'YYYY-MM-DD the filing was made; empty: the vendor does not say')) filingDate: string;
  @ApiProperty(TEXT('S', 'SEC Form 4 code (S sale, P purchase, M exercise, A award, F tax, G gift); empty when unknown')) transactionCode: string;
  @ApiProperty(TEXT('129963', 'Shares in the transaction')) shares: string;
  @ApiProperty(TEXT('-129963', 'Signed change of the holding: negative for a disposal')) change: string;
  @ApiProperty(TEXT('226.35', 'Price per share; empty when unknown')) price: string;
  @ApiProperty(TEXT('29417235', 'Value of the transaction; empty when unknown')) value: string;
}

export class CompanyPeopleDto {
  @ApiProperty({ type: [ExecutiveDto] }) executives: ExecutiveDto[];
  @ApiProperty({ type: [ShareholderDto], description: 'Institutions, largest stake first' }) shareholders: ShareholderDto[];
  @ApiProperty({ type: [FundHolderDto], description: 'Funds, largest stake first' }) funds: FundHolderDto[];
  @ApiProperty({ type: [InsiderTransactionDto], description: 'Newest first' }) insiderTransactions: InsiderTransactionDto[];
}

export class CompanyDto {
  @ApiProperty({ type: StockAssetDto }) asset: StockAssetDto;
  @ApiProperty({ type: StockSourceDto }) source: StockSourceDto;
  @ApiProperty({ type: CompanyPeopleDto }) company: CompanyPeopleDto;
  @ApiProperty({ type: [SectionErrorDto], description: 'One entry per section the vendor could not give; that section is empty' }) errors: SectionErrorDto[];
}
