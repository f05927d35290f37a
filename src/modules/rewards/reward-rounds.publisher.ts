import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { Decimal } from '../../common/decimal/decimal';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app.config';
import { OpcRepository } from '../opc/opc.repository';
import { referrerRewards } from '../referrals/referral-levels';
import { ReferralsRepository } from '../referrals/referrals.repository';
import { toBaseUnits } from './base-units';
import { RewardProgram } from './reward-program';
import { NewLeaf, RewardRoundsRepository } from './reward-rounds.repository';

/** OpenZeppelin's StandardMerkleTree leaf: keccak256(keccak256(abi.encode(account, amount))), what MerkleProof verifies. */
const LEAF_ENCODING = ['address', 'uint256'];

export interface PublishedRound {
  program: RewardProgram;
  roundId: number;
  merkleRoot: string;
  leaves: number;
  /** Base units: the sum of the leaves, which is what the round closed. */
  totalBase: string;
}

/** What an account is owed to date in a programme, in reward-token units. */
interface Entitlement {
  accountId: string;
  address: string;
  owed: string;
}

/**
 * Closes a claim round of a programme: what each account is owed to date, less what earlier rounds paid it,
 * in whole base units (a fraction below one stays owed for the next round), becomes a leaf of an OpenZeppelin
 * StandardMerkleTree; the root, the dump, each leaf's proof and the total are stored with the distributor.
 */
@Injectable()
export class RewardRoundsPublisher {
  private readonly logger = new Logger(RewardRoundsPublisher.name);

  constructor(
    private readonly rounds: RewardRoundsRepository,
    private readonly referrals: ReferralsRepository,
    private readonly opcs: OpcRepository,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  /** One round per programme with anything owed; none when nothing is. */
  async publishAll(): Promise<PublishedRound[]> {
    const published: PublishedRound[] = [];
    for (const program of ['referral', 'opc'] as const) {
      const round = await this.publish(program);
      if (round) published.push(round);
    }
    return published;
  }

  async publish(program: RewardProgram): Promise<PublishedRound | null> {
    const { distributor, tokenDecimals } = this.config.get('economy.rewards', { infer: true });
    if (!distributor) throw AppError.validation('REWARDS_DISTRIBUTOR_ADDRESS', 'is not set: a round names the distributor contract that pays it');
    let summary: Omit<PublishedRound, 'roundId'> | undefined;
    const roundId = await this.rounds.publish(async (tx) => {
      const paid = await tx.publishedBase(program);
      const leaves: Array<Omit<NewLeaf, 'proof'>> = [];
      for (const { accountId, address, owed } of await this.entitlements(program)) {
        const due = toBaseUnits(owed, tokenDecimals).minus(paid.get(accountId) ?? 0);
        if (due.gt(0)) leaves.push({ accountId, address, amountBase: due.toFixed(0) });
      }
      if (leaves.length === 0) return null;
      const tree = StandardMerkleTree.of(
        leaves.map((leaf) => [leaf.address, leaf.amountBase]),
        LEAF_ENCODING,
      );
      const totalBase = leaves.reduce((sum, leaf) => sum.plus(leaf.amountBase), new Decimal(0)).toFixed(0);
      summary = { program, merkleRoot: tree.root, leaves: leaves.length, totalBase };
      return {
        program,
        distributor,
        merkleRoot: tree.root,
        dump: tree.dump(),
        totalBase,
        leaves: leaves.map((leaf, i) => ({ ...leaf, proof: tree.getProof(i) })),
      };
    });
    if (roundId === null || !summary) return null;
    this.logger.log(`${program} round ${roundId}: ${summary.leaves} leaves, ${summary.totalBase} base units, root ${summary.merkleRoot}`);
    return { ...summary, roundId };
  }

  /** Referral: each referrer's referees' builder fees since they bound × its level's rebate. OPC: its revenue to date. */
  private async entitlements(program: RewardProgram): Promise<Entitlement[]> {
    if (program === 'opc') {
      return (await this.opcs.allRevenueTotals()).map((row) => ({ accountId: row.accountId, address: row.address, owed: row.revenue }));
    }
    const builder = this.config.get('economy.builderAddress', { infer: true });
    if (!builder) return [];
    return (await this.referrals.allReferrerTotals(builder)).map((row) => ({
      accountId: row.accountId,
      address: row.address,
      owed: referrerRewards(row).rewards,
    }));
  }
}
