import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { assertWithinOffsetCap, offsetOf } from '../../common/pagination/offset-cap';
import { toPage } from '../../common/pagination/page.dto';
import { AppConfig } from '../../config/app.config';
import { fromBaseUnits } from './base-units';
import { ClaimAllDto, ClaimRoundDto, ClaimsDto, ClaimsPageQueryDto, ClaimStatusDto, OpcClaimsPageDto } from './dto/claims.dto';
import { RewardProgram } from './reward-program';
import { RewardRoundsRepository, RoundRow } from './reward-rounds.repository';

export interface ClaimHolder {
  accountId: string;
  walletAddress: string;
}

/** What an account may claim in a programme: its rounds, the totals, and the claimMultiple payload. */
@Injectable()
export class RewardClaimsService {
  constructor(
    private readonly rounds: RewardRoundsRepository,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async claims(holder: ClaimHolder, program: RewardProgram): Promise<ClaimsDto> {
    const rows = await this.rounds.rounds(holder.accountId, program);
    return { rounds: rows.map(toRoundDto), account: holder.walletAddress, distributor: this.distributor() };
  }

  async claimsPage(holder: ClaimHolder, program: RewardProgram, { page, limit }: ClaimsPageQueryDto): Promise<OpcClaimsPageDto> {
    assertWithinOffsetCap(page, limit);
    const [rows, total] = await Promise.all([
      this.rounds.rounds(holder.accountId, program, { offset: offsetOf(page, limit), take: limit }),
      this.rounds.countRounds(holder.accountId, program),
    ]);
    return { ...toPage({ items: rows.map(toRoundDto), page, limit, total }), total, account: holder.walletAddress, distributor: this.distributor() };
  }

  async status(holder: ClaimHolder, program: RewardProgram): Promise<ClaimStatusDto> {
    const [sums, nextRoundId] = await Promise.all([this.rounds.sums(holder.accountId, program), this.rounds.nextRoundId()]);
    return {
      hasPendingClaim: sums.unclaimedBase !== '0',
      totalClaimable: fromBaseUnits(sums.unclaimedBase, this.decimals()),
      nextRoundId,
    };
  }

  /** Every unclaimed round's id, amount and proof, aligned by index: a claimMultiple(roundIds, amounts, proofs) call. */
  async claimAll(holder: ClaimHolder, program: RewardProgram): Promise<ClaimAllDto> {
    const leaves = await this.rounds.unclaimed(holder.accountId, program);
    return {
      roundIds: leaves.map((leaf) => leaf.roundId),
      amounts: leaves.map((leaf) => leaf.amountBase),
      proofs: leaves.map((leaf) => leaf.proof),
      account: holder.walletAddress,
      distributor: this.distributor(),
    };
  }

  private distributor(): string | null {
    return this.config.get('economy.rewards.distributor', { infer: true }) ?? null;
  }

  private decimals(): number {
    return this.config.get('economy.rewards.tokenDecimals', { infer: true });
  }
}

function toRoundDto(row: RoundRow): ClaimRoundDto {
  return { roundId: row.roundId, amount: row.amountBase, merkleRoot: row.merkleRoot, publishedAt: row.publishedAt.toISOString(), claimed: row.claimed };
}
