import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Decimal, toDecimalString } from '../../common/decimal/decimal';
import { AppError } from '../../common/errors/app-error';
import { assertWithinOffsetCap, offsetOf } from '../../common/pagination/offset-cap';
import { toPage } from '../../common/pagination/page.dto';
import { AppConfig } from '../../config/app.config';
import { fromBaseUnits } from '../rewards/base-units';
import { RewardRoundsRepository } from '../rewards/reward-rounds.repository';
import { BindReferralDto, RefereesPageDto, RefereesQueryDto, ReferralStatusDto } from './dto/referral.dto';
import { referrerRewards } from './referral-levels';
import { BindOutcome, ReferralsRepository } from './referrals.repository';

/** Fills of no builder: the figures of a deployment with no BUILDER_ADDRESS are all zero. */
const NO_BUILDER = '';

const BIND_REFUSALS: Record<Exclude<BindOutcome, 'bound'>, string> = {
  'unknown-code': 'no account has this referral code',
  self: 'an account cannot refer itself',
  'already-bound': 'this account is already bound to a referrer; a binding is permanent',
  cycle: 'the owner of this code is referred by this account (directly or through others): binding would make a cycle',
};

/** Referral status and referees (contract 2.7), for the key holder and the wallet session alike, and binding. */
@Injectable()
export class ReferralsService {
  constructor(
    private readonly repository: ReferralsRepository,
    private readonly rounds: RewardRoundsRepository,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async status({ accountId, walletAddress }: { accountId: string; walletAddress: string }): Promise<ReferralStatusDto> {
    const builder = this.builder();
    const [identity, totals, selfVolume, sums] = await Promise.all([
      this.repository.identity(accountId),
      this.repository.referrerTotals(accountId, builder),
      this.repository.selfVolume(walletAddress, builder),
      this.rounds.sums(accountId, 'referral'),
    ]);
    const { level, rewards } = referrerRewards(totals);
    return {
      refCode: identity.refCode,
      referrerAddress: identity.referrerAddress,
      isBound: identity.referrerAddress !== null,
      refereesTotalVolume: toDecimalString(totals.volumeUsd),
      selfTradingVolume: toDecimalString(selfVolume),
      builderRewards: rewards,
      claimable: fromBaseUnits(sums.unclaimedBase, this.tokenDecimals()),
      currentLevel: level.level,
    };
  }

  async referees(accountId: string, { page, limit }: RefereesQueryDto): Promise<RefereesPageDto> {
    assertWithinOffsetCap(page, limit);
    const builder = this.builder();
    const [totals, rows] = await Promise.all([
      this.repository.referrerTotals(accountId, builder),
      this.repository.referees(accountId, builder, { offset: offsetOf(page, limit), take: limit }),
    ]);
    const { level, rewards } = referrerRewards(totals);
    const items = rows.map((row) => ({
      userAddress: row.userAddress,
      boundAt: row.boundAt.toISOString(),
      totalTradeVolume: toDecimalString(row.volumeUsd),
      totalBuilderFee: toDecimalString(row.builderFee),
      builderReward: new Decimal(row.builderFee).times(level.rebateRate).toFixed(),
    }));
    return {
      ...toPage({ items, page, limit, total: totals.refereeCount }),
      total: totals.refereeCount,
      refereesTotalVolume: toDecimalString(totals.volumeUsd),
      totalBuilderReward: rewards,
      referralRebateRate: level.rebateRate,
      currentLevel: level.level,
    };
  }

  /** 400 naming `code` for each refusal; the status after binding otherwise. */
  async bind(principal: { accountId: string; walletAddress: string }, { code }: BindReferralDto): Promise<ReferralStatusDto> {
    const outcome = await this.repository.bind(principal.accountId, code);
    if (outcome !== 'bound') throw AppError.validation('code', BIND_REFUSALS[outcome]);
    return this.status(principal);
  }

  private builder(): string {
    return this.config.get('economy.builderAddress', { infer: true }) ?? NO_BUILDER;
  }

  private tokenDecimals(): number {
    return this.config.get('economy.rewards.tokenDecimals', { infer: true });
  }
}
