import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvScript, KvStore } from '../../infra/kv/kv-store';
import { billingStoreGenerations } from '../../infra/metrics/metrics';
import { AccountCreditsRepository } from './account-credits.repository';
import { AdmissionRecordKeys } from './admission-record';
import { CreditSeed } from './admit-batch';
import { BillingKeys } from './billing-keys';
import { LedgerRepository } from './ledger.repository';

/** SET NX without an expiry: the generation stays for as long as the store keeps its data. */
const MARK_GENERATION_SCRIPT: KvScript<number> = {
  name: 'mark-generation',
  lua: `if redis.call('SET', KEYS[1], ARGV[1], 'NX') then return 1 end return 0`,
  local(data, [key], [value]) {
    if (data.exists(key)) return 0;
    data.set(key, value);
    return 1;
  },
};

/** The outbox's name in the drain fence: its KV key with the deployment's prefix. */
export function outboxIdOf(config: ConfigService<AppConfig, true>): string {
  return `${config.get('redis.keyPrefix', { infer: true })}${BillingKeys.outbox}`;
}

/**
 * Seeds of live balances, read from PostgreSQL when the admission script asks for one (ADMIT_SCRIPT's
 * NEEDS_SEED): never the key cache's copy, which is seconds old, so a store that lost its data gets back
 * no charge that was drained since. When the store holds no billing generation (it is new, or lost its
 * data), the first seed claims the ledger drain fence before it reads: a drain that read the outbox
 * before the loss and writes now would otherwise add charges the seed does not hold. Claiming waits for
 * a write under the old token in flight, and refuses any later one (its lines are then lost with the
 * store, and counted: ledger_lines_lost_total). Then it writes the generation, so the seeds after it
 * need no fence.
 */
@Injectable()
export class CreditSeeds {
  private readonly logger = new Logger(CreditSeeds.name);
  private readonly outboxId: string;
  private fencing?: Promise<void>;

  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly credits: AccountCreditsRepository,
    private readonly ledger: LedgerRepository,
    config: ConfigService<AppConfig, true>,
  ) {
    this.outboxId = outboxIdOf(config);
  }

  async read(accountId: string, fence: boolean): Promise<CreditSeed> {
    if (fence) await this.fenceOnce();
    return this.credits.seedOf(accountId);
  }

  private fenceOnce(): Promise<void> {
    this.fencing ??= this.fence().finally(() => (this.fencing = undefined));
    return this.fencing;
  }

  private async fence(): Promise<void> {
    await this.ledger.claim(this.outboxId, `seed-${randomUUID()}`);
    if ((await this.kv.run(MARK_GENERATION_SCRIPT, [AdmissionRecordKeys.generation], [new Date().toISOString()])) !== 1) return;
    billingStoreGenerations.inc();
    this.logger.warn(
      'the KV store held no billing state (a new store, or one that lost its data): live balances are seeded from PostgreSQL, ' +
        'and ledger lines it held that no drain had written are lost (see ledger_outbox_length before this)',
    );
  }
}
