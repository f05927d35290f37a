import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../src/config/app.config';
import { KvStore } from '../../src/infra/kv/kv-store';
import { AdmissionService } from '../../src/modules/billing/admission.service';
import { CreditSeed, SeedReader } from '../../src/modules/billing/admit-batch';
import { CallSettlements } from '../../src/modules/billing/call-settlements';
import { RedisCreditStore } from '../../src/modules/billing/redis-credit.store';
import { LedgerFlusherService } from '../../src/modules/billing/ledger-flusher.service';
import { LedgerRepository } from '../../src/modules/billing/ledger.repository';
import { UsageMeterService } from '../../src/modules/billing/usage-meter.service';
import { DataSource } from 'typeorm';

/** Just the settings the billing services read, for specs that build them by hand. */
export function billingConfig(overrides: { admissionTimeoutMs?: number; keyPrefix?: string } = {}): ConfigService<AppConfig, true> {
  const values: Record<string, unknown> = {
    'billing.admissionTimeoutMs': overrides.admissionTimeoutMs ?? 2000,
    'redis.keyPrefix': overrides.keyPrefix ?? 'test:',
    'ledger.flushIntervalMs': 60_000,
  };
  return { get: (key: string) => values[key] } as unknown as ConfigService<AppConfig, true>;
}

/** A ledger drain over `kv` into `db`, run only when a test flushes it. */
export function ledgerDrain(kv: KvStore, db: DataSource): LedgerFlusherService {
  return new LedgerFlusherService(kv, new LedgerRepository(db), billingConfig());
}

/**
 * An AdmissionService on the redis credits store over `kv` (Redis or the in-process store), whose seeds
 * come from `seedOf`: PostgreSQL's view of an account, which a unit spec keeps in memory.
 */
export function redisAdmission(kv: KvStore, seedOf: (accountId: string) => CreditSeed, overrides: { admissionTimeoutMs?: number } = {}) {
  const fences: string[] = [];
  const seeds: SeedReader = async (accountId, fence) => {
    if (fence) fences.push(accountId);
    return seedOf(accountId);
  };
  const store = new RedisCreditStore(kv, seeds);
  const meter = new UsageMeterService(kv, {} as never);
  const settlements = new CallSettlements();
  const admission = new AdmissionService(store, meter, settlements, billingConfig(overrides));
  return { admission, store, meter, settlements, fences };
}
