import { Module, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { JobRegistry } from '../../jobs/job-registry';
import { OpcModule } from '../opc/opc.module';
import { ReferralsModule } from '../referrals/referrals.module';
import { ClaimedEventsJob } from './claimed-events.job';
import { RewardLedgerModule } from './reward-ledger.module';
import { RewardRoundsPublisher } from './reward-rounds.publisher';

const PUBLISH_LEASE_MS = 10 * 60_000;
const CLAIMS_LEASE_MS = 5 * 60_000;

/** Claim rounds: rewards.publish-round closes them, rewards.claims marks them claimed; the ops CLI has both. */
@Module({
  imports: [RewardLedgerModule, ReferralsModule, OpcModule],
  providers: [RewardRoundsPublisher, ClaimedEventsJob],
  exports: [RewardRoundsPublisher, RewardLedgerModule],
})
export class RewardsModule implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly config: ConfigService<AppConfig, true>,
    private readonly publisher: RewardRoundsPublisher,
    private readonly claims: ClaimedEventsJob,
  ) {}

  onModuleInit() {
    const schedules = this.config.get('jobs.schedules', { infer: true });
    this.registry.register({
      name: 'rewards.publish-round',
      ...schedules['rewards.publish-round'],
      leaseMs: PUBLISH_LEASE_MS,
      run: async () => {
        const rounds = await this.publisher.publishAll();
        return { rows: rounds.length, details: { rounds } };
      },
    });
    this.registry.register({ name: 'rewards.claims', ...schedules['rewards.claims'], leaseMs: CLAIMS_LEASE_MS, run: (signal) => this.claims.run(signal) });
  }
}
