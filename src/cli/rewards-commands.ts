import { AppError } from '../common/errors/app-error';
import { REWARD_PROGRAMS, RewardProgram } from '../modules/rewards/reward-program';
import { RewardRoundsPublisher } from '../modules/rewards/reward-rounds.publisher';
import { RewardRoundsRepository } from '../modules/rewards/reward-rounds.repository';
import { normalizeAddressOption } from './address-option';
import type { CliCommand } from './commands';

/** Ops commands of the claim rounds. */
export const REWARDS_COMMANDS: Record<string, CliCommand> = {
  'rewards:publish-round': {
    summary: 'Close a claim round of each programme (or of --program referral|opc) with what is owed now; none where nothing is',
    options: [],
    optional: ['program'],
    async run(app, { program }) {
      const publisher = app.get(RewardRoundsPublisher);
      const rounds = program === undefined ? await publisher.publishAll() : [await publisher.publish(programOption(program))].flatMap((r) => (r ? [r] : []));
      return {
        json: { rounds },
        text: rounds.length
          ? rounds.map((r) => `published ${r.program} round ${r.roundId}: ${r.leaves} leaves, ${r.totalBase} base units, root ${r.merkleRoot}`)
          : ['nothing is owed: no round published'],
      };
    },
  },
  'rewards:mark-claimed': {
    summary: 'Mark a wallet’s leaf of a round claimed (where no REWARDS_RPC_URL reads the distributor’s Claimed events)',
    options: ['round', 'address'],
    async run(app, { round, address }) {
      if (!/^[1-9]\d{0,8}$/.test(round)) throw AppError.validation('round', 'must be a round id (a positive integer)');
      const wallet = normalizeAddressOption(address);
      const marked = await app.get(RewardRoundsRepository).markClaimed({ roundId: Number(round), address: wallet });
      if (!marked) throw AppError.notFound(`unclaimed leaf of ${wallet} in round ${round}`);
      return { json: { round: Number(round), address: wallet }, text: [`marked round ${round} claimed for ${wallet}`] };
    },
  },
};

function programOption(value: string): RewardProgram {
  if (!(REWARD_PROGRAMS as readonly string[]).includes(value)) throw AppError.validation('program', `must be one of ${REWARD_PROGRAMS.join(', ')}`);
  return value as RewardProgram;
}
