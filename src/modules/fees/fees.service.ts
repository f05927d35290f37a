import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import BigNumber from 'bignumber.js';
import { Decimal } from '../../common/decimal/decimal';
import { assertWithinOffsetCap, offsetOf } from '../../common/pagination/offset-cap';
import { Page, toPageFromProbe } from '../../common/pagination/page.dto';
import { AppConfig } from '../../config/app.config';
import { ApiCaller } from '../account/api-caller';
import { isTier, TIERS } from '../billing/billing.public';
import { FeeRecordDto } from './dto/fee-record.dto';
import { FeesQueryDto } from './dto/fees.query.dto';
import { feeWindow } from './fee-window';
import { FeeFillRow, FeesRepository } from './fees.repository';

/** Builder fees are paid in USDC (perps' collateral), to 6 decimals. */
const FEE_DECIMALS = 6;

/**
 * Fee records (contract 2.7): one per fill of the key holder through the service's builder, the builder fee
 * at the service's base rate and after the discount of the tier the account had at trade time.
 */
@Injectable()
export class FeesService {
  constructor(
    private readonly repository: FeesRepository,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  /** Newest first; `total` is null (hasMore from one probe row), so a page costs the same however long the window. */
  async list(caller: ApiCaller, query: FeesQueryDto): Promise<Page<FeeRecordDto>> {
    const { start, end } = feeWindow(query);
    const { page, limit } = query;
    assertWithinOffsetCap(page, limit);
    const { builderAddress, baseFeeTenthsBps } = this.config.get('economy', { infer: true });
    if (!builderAddress) return toPageFromProbe({ rows: [], page, limit });
    const rows = await this.repository.fills({
      accountId: caller.accountId,
      wallet: caller.walletAddress,
      builder: builderAddress,
      start,
      end,
      offset: offsetOf(page, limit),
      take: limit + 1,
    });
    const baseRate = new Decimal(baseFeeTenthsBps).div(100_000);
    return toPageFromProbe({ rows: rows.map((row) => toRecord(row, baseRate)), page, limit });
  }
}

function toRecord(row: FeeFillRow, baseRate: BigNumber): FeeRecordDto {
  const discount = isTier(row.tier) ? TIERS[row.tier].feeDiscount : '0';
  const fee = new Decimal(row.volumeUsd).times(baseRate);
  return {
    txHash: row.txHash,
    svcFee: fee.decimalPlaces(FEE_DECIMALS, BigNumber.ROUND_HALF_UP).toFixed(),
    vipDiscountRate: discount,
    svcFeeDiscounted: fee.times(new Decimal(1).minus(discount)).decimalPlaces(FEE_DECIMALS, BigNumber.ROUND_HALF_UP).toFixed(),
    tradeTime: row.fillTime.toISOString(),
  };
}
