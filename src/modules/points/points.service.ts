import { Injectable } from '@nestjs/common';
import { toDecimalString } from '../../common/decimal/decimal';
import { assertWithinOffsetCap, offsetOf } from '../../common/pagination/offset-cap';
import { Page, toPageFromProbe } from '../../common/pagination/page.dto';
import { ApiCaller } from '../account/api-caller';
import { isTier, TIERS } from '../billing/billing.public';
import { PointsOverviewDto, PointsTransactionDto, PointsTransactionsQueryDto } from './dto/points.dto';
import { POINTS_BUCKETS } from './points-rules';
import { PointsRepository, PointsTransactionRow } from './points.repository';

/** The key holder's points (contract 4.6): the balance and rank, per-bucket sums, and the history. */
@Injectable()
export class PointsService {
  constructor(private readonly repository: PointsRepository) {}

  async overview(caller: ApiCaller): Promise<PointsOverviewDto> {
    const [balance, buckets] = await Promise.all([this.repository.balance(caller.accountId), this.repository.buckets(caller.accountId)]);
    return {
      walletAddress: caller.walletAddress,
      balance: toDecimalString(balance.balance),
      rawBalance: Number(balance.rawBalance),
      totalEarned: toDecimalString(balance.totalEarned),
      rank: balance.rank,
      buckets: POINTS_BUCKETS.map((bucket) => {
        const row = buckets.find((b) => b.bucket === bucket);
        return {
          bucket,
          rawPoints: Number(row?.rawPoints ?? 0),
          points: toDecimalString(row?.points ?? '0'),
          volumeUsd: toDecimalString(row?.volumeUsd ?? '0'),
        };
      }),
    };
  }

  /** `total` is null (hasMore from one probe row): counting a heavy trader's history on every page is not worth its cost. */
  async transactions(caller: ApiCaller, { page, limit, bucket }: PointsTransactionsQueryDto): Promise<Page<PointsTransactionDto>> {
    assertWithinOffsetCap(page, limit);
    const rows = await this.repository.transactions({ accountId: caller.accountId, bucket, offset: offsetOf(page, limit), take: limit + 1 });
    return toPageFromProbe({ rows: rows.map(toDto), page, limit });
  }
}

function toDto(row: PointsTransactionRow): PointsTransactionDto {
  return {
    id: row.id,
    volumeBucket: row.volumeBucket,
    role: row.role,
    sourceType: 'trade',
    volumeUsd: toDecimalString(row.volumeUsd),
    vipTierSnap: isTier(row.vipTierSnap) ? TIERS[row.vipTierSnap].label : row.vipTierSnap,
    vipMultiplierSnap: toDecimalString(row.vipMultiplierSnap),
    rawPoints: row.rawPoints,
    points: toDecimalString(row.points),
    balanceAfter: toDecimalString(row.balanceAfter),
    eventAt: row.eventAt.toISOString(),
    eventTimeSource: 'fill',
    tradeTxHash: row.tradeTxHash,
  };
}
