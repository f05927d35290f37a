import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Counter, Gauge } from 'prom-client';
import { AppConfig } from '../../config/app.config';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { ledgerDrainFailures, ledgerOutboxLength } from '../../infra/metrics/metrics';
import { BillingKeys } from './billing-keys';
import { LedgerFlusherService } from './ledger-flusher.service';
import { LedgerWriteResult, LedgerRepository } from './ledger.repository';

const LINE = 'charge|0b9f3c2e-5d1a-4c6e-9f00-1a2b3c4d5e6f|019aa8f2-0000-7000-8000-000000000001|hl.perp.holders|-1000000|4000000|1|0|1|1800000000000';

/** The ledger's PostgreSQL side: down, or answering each write with `result`. */
class FakeLedger {
  down = false;
  result: LedgerWriteResult = { inserted: 1, malformed: 0, fenced: true };

  async claim(): Promise<void> {
    if (this.down) throw new Error('database down');
  }

  async write(): Promise<LedgerWriteResult> {
    if (this.down) throw new Error('database down');
    return this.result;
  }
}

describe(LedgerFlusherService.name, () => {
  let kv: MemoryKvStore;
  let ledger: FakeLedger;
  let sut: LedgerFlusherService;

  beforeEach(() => {
    kv = new MemoryKvStore();
    ledger = new FakeLedger();
    const config = new ConfigService<AppConfig, true>({ redis: { keyPrefix: 'test:' }, ledger: { flushIntervalMs: 1000 } });
    sut = new LedgerFlusherService(kv, ledger as unknown as LedgerRepository, config);
    kv.data.rpush(BillingKeys.outbox, LINE, LINE, LINE);
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('counts every failed drain and logs the failure with its error once per interval, keeping the lines', async () => {
    const before = await valueOf(ledgerDrainFailures);
    ledger.down = true;

    await expect(sut.flush()).rejects.toThrow('database down');
    await expect(sut.flush()).rejects.toThrow('database down');

    expect(await valueOf(ledgerDrainFailures)).toBe(before + 2);
    expect(Logger.prototype.error).toHaveBeenCalledTimes(1);
    expect(Logger.prototype.error).toHaveBeenCalledWith('ledger drain failed: database down');
    expect(await kv.llen(BillingKeys.outbox)).toBe(3);
  });

  it('says once that drains work again', async () => {
    ledger.down = true;
    await expect(sut.flush()).rejects.toThrow('database down');
    ledger.down = false;

    await sut.flush();

    expect(Logger.prototype.log).toHaveBeenCalledWith('ledger drain works again');
  });

  it('reports the outbox length a drain leaves: nothing once written, every line when another drainer took over', async () => {
    await sut.flush();
    expect(await valueOf(ledgerOutboxLength)).toBe(0);

    kv.data.rpush(BillingKeys.outbox, LINE, LINE);
    ledger.result = { inserted: 0, malformed: 0, fenced: false };
    await sut.flush();

    expect(await valueOf(ledgerOutboxLength)).toBe(2);
  });
});

/** The value of an unlabelled series (shared by every app in this process: compare before and after). */
async function valueOf(metric: Counter | Gauge): Promise<number> {
  return (await metric.get()).values[0]?.value ?? 0;
}
