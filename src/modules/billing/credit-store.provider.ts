import { Logger, Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { billingCreditsStore } from '../../infra/metrics/metrics';
import { AccountCreditsRepository } from './account-credits.repository';
import { CreditSeeds } from './credit-seeds';
import { CREDIT_STORE, CreditStore, CreditStoreKind } from './credit-store';
import { LedgerFlusherService } from './ledger-flusher.service';
import { PostgresCreditStore } from './postgres-credit.store';
import { RedisCreditStore } from './redis-credit.store';

const logger = new Logger('CreditStore');

/**
 * CREDITS_STORE=auto: `redis` when Redis keeps an append-only file and never evicts keys (it then loses
 * nothing it acknowledged), `postgres` otherwise: the in-process store, a Redis that would come back empty,
 * or one whose maxmemory policy may drop a live balance or an admission's record. A Redis that will not say
 * (INFO refused) is taken at its word as configured for production: `redis`.
 */
export async function chooseCreditStore(kv: KvStore, configured: AppConfig['billing']['creditsStore']): Promise<{ kind: CreditStoreKind; why: string }> {
  const persistence = await kv.persistence();
  if (configured !== 'auto') {
    if (configured === 'redis' && persistence !== 'aof') {
      logger.warn(
        persistence === 'evicting'
          ? 'CREDITS_STORE=redis on a Redis whose maxmemory policy may evict keys: a live balance or an admission record it drops can bill wrongly'
          : 'CREDITS_STORE=redis on a KV store without an append-only file: charges still in its outbox are lost if it loses its data',
      );
    }
    return { kind: configured, why: 'CREDITS_STORE' };
  }
  if (kv.kind === 'memory') return { kind: 'postgres', why: 'the in-process KV store keeps nothing through a restart' };
  if (persistence === 'none') return { kind: 'postgres', why: 'Redis keeps no append-only file' };
  if (persistence === 'evicting') return { kind: 'postgres', why: 'Redis may evict keys (maxmemory-policy is not noeviction)' };
  return { kind: 'redis', why: persistence === 'aof' ? 'Redis keeps an append-only file' : 'Redis does not say how it persists' };
}

/**
 * Moving from one store to the other, once, at the first start on the new one (billing_state remembers the
 * last): onto postgres, the outbox is drained first, so no charge of the redis store is left to fold over
 * the balances PostgreSQL now keeps; onto redis, every account's credit epoch moves on, so the live
 * balances seed again from PostgreSQL instead of any a Redis kept from before. Start the new store once
 * every replica of the old one has stopped (their shutdown drains).
 */
async function switchTo(kind: CreditStoreKind, credits: AccountCreditsRepository, flusher: LedgerFlusherService): Promise<void> {
  const previous = (await credits.lastCreditStore()) ?? 'redis';
  if (previous === kind) return;
  if (kind === 'postgres') {
    while ((await flusher.flush()) > 0);
  } else {
    await credits.moveEveryEpoch();
  }
  await credits.recordCreditStore(kind);
  logger.log(`credits store switched from ${previous} to ${kind}`);
}

export const CREDIT_STORE_PROVIDER: Provider = {
  provide: CREDIT_STORE,
  inject: [KV_STORE, AccountCreditsRepository, CreditSeeds, LedgerFlusherService, ConfigService],
  useFactory: async (
    kv: KvStore,
    credits: AccountCreditsRepository,
    seeds: CreditSeeds,
    flusher: LedgerFlusherService,
    config: ConfigService<AppConfig, true>,
  ): Promise<CreditStore> => {
    const { kind, why } = await chooseCreditStore(kv, config.get('billing.creditsStore', { infer: true }));
    await switchTo(kind, credits, flusher);
    billingCreditsStore.reset();
    billingCreditsStore.set({ store: kind }, 1);
    logger.log(
      kind === 'redis'
        ? `credits store: redis (${why}): live balances and the ledger outbox in Redis, drained into PostgreSQL`
        : `credits store: postgres (${why}): every charge is written to PostgreSQL before its call is answered`,
    );
    if (kind === 'redis') return new RedisCreditStore(kv, (accountId, fence) => seeds.read(accountId, fence));
    // The locks' wait ends well before the admission's deadline, whatever else the attempt spent.
    return new PostgresCreditStore(kv, credits, config.get('billing.admissionTimeoutMs', { infer: true }) * 0.6);
  },
};
