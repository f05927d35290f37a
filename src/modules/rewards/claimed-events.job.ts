import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { FetchRequest, Interface, JsonRpcProvider } from 'ethers';
import { AppConfig } from '../../config/app.config';
import { JobOutcome } from '../../jobs/job.types';
import { RewardRoundsRepository } from './reward-rounds.repository';

/** The distributor's event for a paid leaf (documented in docs/decisions.md, "Claim rounds"). */
export const DISTRIBUTOR_EVENTS = new Interface(['event Claimed(uint256 indexed roundId, address indexed account, uint256 amount)']);
const CLAIMED_TOPIC = DISTRIBUTOR_EVENTS.getEvent('Claimed')!.topicHash;
/** Blocks a log must be under before it counts: a claim in a block that is reorganised away was not paid. */
export const CLAIM_CONFIRMATIONS = 12;
/** Blocks per eth_getLogs call: public endpoints refuse wide ranges. */
const BLOCKS_PER_QUERY = 5_000;
const RPC_TIMEOUT_MS = 10_000;

/**
 * rewards.claims: reads the distributor's Claimed events since the last block it read and marks those leaves
 * claimed. Runs only with REWARDS_RPC_URL and REWARDS_DISTRIBUTOR_ADDRESS; without them an operator marks
 * claims with `rewards:mark-claimed`.
 */
@Injectable()
export class ClaimedEventsJob implements OnApplicationShutdown {
  private readonly logger = new Logger(ClaimedEventsJob.name);
  private provider?: JsonRpcProvider;

  constructor(
    private readonly rounds: RewardRoundsRepository,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  onApplicationShutdown() {
    this.provider?.destroy();
  }

  async run(signal?: AbortSignal): Promise<JobOutcome> {
    const { rpcUrl, distributor, fromBlock } = this.config.get('economy.rewards', { infer: true });
    if (!rpcUrl || !distributor) return { rows: 0, details: { skipped: 'REWARDS_RPC_URL and REWARDS_DISTRIBUTOR_ADDRESS are both needed' } };
    const provider = this.providerFor(rpcUrl);
    const safeHead = (await provider.getBlockNumber()) - CLAIM_CONFIRMATIONS;
    let from = ((await this.rounds.scannedUpTo(distributor)) ?? fromBlock - 1) + 1;
    let marked = 0;
    let events = 0;
    while (from <= safeHead) {
      signal?.throwIfAborted();
      const to = Math.min(from + BLOCKS_PER_QUERY - 1, safeHead);
      const logs = await provider.getLogs({ address: distributor, topics: [CLAIMED_TOPIC], fromBlock: from, toBlock: to });
      for (const log of logs) {
        const event = DISTRIBUTOR_EVENTS.parseLog(log);
        if (!event) continue;
        events++;
        const [roundId, account] = event.args as unknown as [bigint, string];
        if (await this.rounds.markClaimed({ roundId: Number(roundId), address: account })) marked++;
      }
      await this.rounds.recordScan(distributor, to);
      from = to + 1;
    }
    if (marked > 0) this.logger.log(`${marked} claim(s) marked from ${events} Claimed event(s)`);
    return { rows: marked, details: { events, scannedTo: Math.max(safeHead, from - 1) } };
  }

  private providerFor(url: string): JsonRpcProvider {
    if (!this.provider) {
      const request = new FetchRequest(url);
      request.timeout = RPC_TIMEOUT_MS;
      this.provider = new JsonRpcProvider(request, undefined, { staticNetwork: true, batchMaxCount: 1 });
    }
    return this.provider;
  }
}
