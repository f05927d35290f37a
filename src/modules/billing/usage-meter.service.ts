import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { EndpointName } from './credit-costs';
import { encodeUsageTallies, UsageTallies } from './usage-meter.format';
import { ADD_USAGE_SCRIPT } from './usage-meter.scripts';

/**
 * Per-endpoint usage of the calls that cost nothing (a Free caller's, /usage itself; a charged call is
 * counted by its ledger row), per account, period and UTC day, counted in memory and added to the shared
 * KV meters in one call every USAGE_FLUSH_INTERVAL_MS and at shutdown. Those meters hold only deltas that
 * UsageSyncService moves into the durable totals, so they may start empty at any time. Usage is a report,
 * not a limit: the rate window and the credit balance are exact per call, while a meter may lag by one
 * flush interval on other replicas (the replica that served a call flushes before it answers /usage, so a
 * caller on one replica always sees its own calls). Keeping it off the admission script takes four of its
 * KV operations off every call. A process that crashes loses its last interval of these counts (never a
 * charge, nor a charged call's count: those are in the ledger).
 */
@Injectable()
export class UsageMeterService implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(UsageMeterService.name);
  /**
   * accountId -> period -> day -> endpoint -> tally. Nested rather than keyed by `accountId:period`: the keys
   * are strings and numbers the call already holds (the day from UtcDayCache), so counting a call makes no
   * string to hash.
   */
  private pending: UsageTallies = new Map();
  /** A batch whose add got no answer: sent again, under its id, before anything counted since. */
  private unconfirmed?: { id: string; tallies: UsageTallies };
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  onModuleInit() {
    // Not a registry job: the tallies are this process's memory, so every replica flushes its own, every second or so.
    this.timer = setInterval(() => void this.flush(), this.config.get('usage.flushIntervalMs', { infer: true }));
    this.timer.unref();
  }

  async beforeApplicationShutdown() {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Calls that finished while the HTTP server was closing (the KV store closes after this module). */
  async onApplicationShutdown() {
    await this.flush();
  }

  /**
   * Counts an admitted call (credits only when it was charged) on `day`, the UTC day (YYYY-MM-DD) it was
   * admitted. Positional rather than an options object: this runs on every billed call.
   */
  count(accountId: string, period: number, day: string, endpoint: EndpointName, creditsMicro: number): void {
    this.add(accountId, period, day, endpoint, 1, creditsMicro);
  }

  /** Takes a failed call back out, of the period and day it was counted on. */
  uncount(accountId: string, period: number, day: string, endpoint: EndpointName, creditsMicro: number): void {
    this.add(accountId, period, day, endpoint, -1, -creditsMicro);
  }

  /**
   * Adds everything counted so far to the KV meters; serialised, so a caller can wait for its own calls.
   * A batch whose add failed may still have been added (its reply lost): it is sent again as it was, under
   * its id, which makes a second add a no-op, and only then what was counted since.
   */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      for (let round = 0; round < 2; round++) {
        if (!this.unconfirmed) {
          if (this.pending.size === 0) return;
          this.unconfirmed = { id: randomUUID(), tallies: this.pending };
          this.pending = new Map();
        }
        const { keys, args } = encodeUsageTallies(this.unconfirmed.tallies, this.unconfirmed.id);
        try {
          await this.kv.run(ADD_USAGE_SCRIPT, keys, args);
          this.unconfirmed = undefined;
        } catch (error) {
          this.logger.error(`usage flush failed, sending it again on the next one: ${(error as Error).message}`);
          return;
        }
      }
    });
    return this.flushing;
  }

  private add(accountId: string, period: number, day: string, endpoint: EndpointName, calls: number, creditsMicro: number): void {
    let periods = this.pending.get(accountId);
    if (!periods) {
      periods = new Map();
      this.pending.set(accountId, periods);
    }
    let days = periods.get(period);
    if (!days) {
      days = new Map();
      periods.set(period, days);
    }
    let endpoints = days.get(day);
    if (!endpoints) {
      endpoints = new Map();
      days.set(day, endpoints);
    }
    const tally = endpoints.get(endpoint);
    if (tally) {
      tally.calls += calls;
      tally.creditsMicro += creditsMicro;
    } else {
      endpoints.set(endpoint, { calls, creditsMicro });
    }
  }
}
