import { Injectable } from '@nestjs/common';
import { toDecimalString } from '../../common/decimal/decimal';
import { assertWithinOffsetCap, offsetOf } from '../../common/pagination/offset-cap';
import { Page, toPage } from '../../common/pagination/page.dto';
import { WalletPrincipal } from '../access/principal';
import { CurrentSnapshot, SnapshotStore } from '../hl/snapshot/snapshot-store';
import { CohortPositionRow, CohortsRepository } from './cohorts.repository';
import { CohortsService } from './cohorts.service';
import { CohortPositionDto, CohortPositionsQueryDto } from './dto/cohort.dto';

const UNDEFINED_TABLE = '42P01';

/**
 * A cohort's perp positions as the current market snapshot holds them (hl_perp_holders: every polled
 * position with a mark, valued at the snapshot's mark), so the figures agree with /hl/perp/holders.
 */
@Injectable()
export class CohortPositionsService {
  constructor(
    private readonly cohorts: CohortsService,
    private readonly repository: CohortsRepository,
    private readonly snapshots: SnapshotStore,
  ) {}

  async list({ accountId }: WalletPrincipal, id: string, { page, limit }: CohortPositionsQueryDto): Promise<Page<CohortPositionDto>> {
    await this.cohorts.requireOwned(accountId, id);
    assertWithinOffsetCap(page, limit);
    try {
      return await this.readPage({ id, page, limit });
    } catch (error) {
      // The snapshot read may have been pruned in between (only at the shortest intervals): read the newer one.
      if ((error as { code?: string }).code !== UNDEFINED_TABLE) throw error;
      return this.readPage({ id, page, limit });
    }
  }

  private async readPage({ id, page, limit }: { id: string; page: number; limit: number }): Promise<Page<CohortPositionDto>> {
    const snapshot = await this.snapshots.current('market');
    // Before the first market snapshot there are no positions to show, which is no error.
    if (!snapshot) return toPage({ items: [], page, limit, total: 0 });
    const total = await this.repository.countPositions({ cohortId: id, snapshotId: snapshot.id });
    const rows = await this.repository.positions({ cohortId: id, snapshotId: snapshot.id, offset: offsetOf(page, limit), limit });
    return toPage({ items: rows.map((row) => toPosition(row, snapshot)), page, limit, total });
  }
}

function toPosition(row: CohortPositionRow, snapshot: CurrentSnapshot): CohortPositionDto {
  const size = toDecimalString(row.size);
  return {
    address: row.address,
    tags: row.tags,
    coin: row.coin,
    size: row.side === 'short' ? toDecimalString(`-${size}`) : size,
    side: row.side,
    entryPx: toDecimalString(row.entry_price),
    markPx: toDecimalString(row.mark_price),
    positionValue: toDecimalString(row.value),
    unrealizedPnl: toDecimalString(row.upnl),
    leverage: toDecimalString(row.leverage),
    liquidationPx: row.liquidation_price === null ? null : toDecimalString(row.liquidation_price),
    snapshotTime: snapshot.snapshotTime.toISOString(),
  };
}
