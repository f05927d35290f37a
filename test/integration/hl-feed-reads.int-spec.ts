import { ConfigService } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../src/config/app.config';
import { HyperliquidInfoClient } from '../../src/providers/hyperliquid/hyperliquid-info.client';
import { ClearinghouseState } from '../../src/providers/hyperliquid/hyperliquid.types';
import { HlAddressesRepository } from '../../src/modules/hl/jobs/hl-addresses.repository';
import { HlFeedReadsRepository } from '../../src/modules/hl/jobs/hl-feed-reads.repository';
import { HlStateRepository } from '../../src/modules/hl/jobs/hl-state.repository';
import { PositionsJob } from '../../src/modules/hl/jobs/positions.job';
import { SnapshotJob } from '../../src/modules/hl/jobs/snapshot.job';
import { MarketSnapshotBuilder } from '../../src/modules/hl/snapshot/market-snapshot.builder';
import { answerTime } from '../../src/modules/hl/snapshot/snapshot-freshness';
import { SnapshotStore } from '../../src/modules/hl/snapshot/snapshot-store';
import { openTestDbInOwnSchema } from '../support/test-db';

const WHALE = '0x' + 'a'.repeat(40);
const MINNOW = '0x' + 'b'.repeat(40);
const MINUTE_MS = 60_000;
const EMPTY_ACCOUNT: ClearinghouseState = {
  assetPositions: [],
  marginSummary: { accountValue: '1000', totalNtlPos: '0', totalRawUsd: '1000', totalMarginUsed: '0' },
  crossMarginSummary: null,
  crossMaintenanceMarginUsed: null,
  withdrawable: '0',
  time: null,
};

/**
 * The feed stamps on real PostgreSQL (own schema): what each polling round stamps, and what the snapshot job
 * publishes and counts trending's periods from.
 */
describe('Feed stamps: how old the data of a market snapshot is', () => {
  let drop: () => Promise<void>;
  let db: DataSource;
  let feeds: HlFeedReadsRepository;
  let addresses: HlAddressesRepository;

  beforeAll(async () => {
    ({ db, drop } = await openTestDbInOwnSchema('hl_feeds', 4));
    feeds = new HlFeedReadsRepository(db);
    addresses = new HlAddressesRepository(db);
  });
  afterAll(() => drop());
  beforeEach(async () => {
    await db.query(
      `TRUNCATE hl_addresses, hl_markets, hl_positions, hl_spot_balances, hl_trades, hl_mid_samples, hl_feed_reads,
                hl_snapshots, hl_current_snapshots, hl_snapshot_coins`,
    );
  });

  describe('a polling round', () => {
    /** The time of the round's first upstream read, to compare its stamp with. */
    let firstReadAt: Date | undefined;

    function makeSut(failing: Set<string>): PositionsJob {
      const read = async (user: string) => {
        firstReadAt ??= new Date();
        if (failing.has(user)) throw new Error('connection refused');
      };
      const client = {
        clearinghouseState: async (user: string) => (await read(user), EMPTY_ACCOUNT),
        spotClearinghouseState: async (user: string) => (await read(user), { balances: [] }),
      } as unknown as HyperliquidInfoClient;
      const hlJobs = { pollBatch: 100, pollConcurrency: 2, positionsIntervalMs: 5000, fullReadIntervalMs: 60 * MINUTE_MS };
      const config = { get: (key: string) => (key === 'hlJobs' ? hlJobs : undefined) } as unknown as ConfigService<AppConfig, true>;
      return new PositionsJob(client, new HlStateRepository(db), addresses, feeds, config);
    }

    beforeEach(async () => {
      firstReadAt = undefined;
      await addresses.upsertAddresses({ addresses: [WHALE, MINNOW], source: 'leaderboard' });
    });

    it('stamps the positions feed with its start once one address was read, though another failed', async () => {
      const before = new Date();
      const outcome = await makeSut(new Set([MINNOW])).run();

      expect(outcome.failures).toBe(1);
      const { positions } = await feeds.current();
      expect(positions!.getTime()).toBeGreaterThanOrEqual(before.getTime());
      expect(positions!.getTime()).toBeLessThanOrEqual(firstReadAt!.getTime());
    });

    it('leaves the stamp where it was when every read failed', async () => {
      const earlier = new Date(Date.now() - 10 * MINUTE_MS);
      await feeds.stamp('positions', earlier);

      const outcome = await makeSut(new Set([WHALE, MINNOW])).run();

      expect(outcome.failures).toBe(2);
      expect(await feeds.current()).toEqual({ positions: earlier });
    });

    it('leaves the stamp where it was when no address was due', async () => {
      await db.query(`UPDATE hl_addresses SET next_poll_at = now() + interval '1 hour'`);

      await makeSut(new Set()).run();

      expect(firstReadAt).toBeUndefined();
      expect(await feeds.current()).toEqual({});
    });
  });

  it('never moves a stamp back (the mids and the catalogue both stamp the marks)', async () => {
    const later = new Date(Date.now() - MINUTE_MS);
    await feeds.stamp('marks', later);
    await feeds.stamp('marks', new Date(later.getTime() - MINUTE_MS));
    expect(await feeds.current()).toEqual({ marks: later });
  });

  describe('the snapshot job', () => {
    const settings: Record<string, unknown> = { 'hlJobs.snapshotRetention': 3, 'hlJobs.fillsRetentionDays': 7 };
    const config = { get: (key: string) => settings[key] } as unknown as ConfigService<AppConfig, true>;
    const makeSut = () => new SnapshotJob(new SnapshotStore(db), new MarketSnapshotBuilder(db), addresses, feeds, config);

    it('publishes the stamps it was built from, and republishing from the same reads keeps them', async () => {
      const positions = new Date(Date.now() - 2 * MINUTE_MS);
      const marks = new Date(Date.now() - MINUTE_MS);
      await feeds.stamp('positions', positions);
      await feeds.stamp('marks', marks);

      await makeSut().run();
      const first = (await new SnapshotStore(db).current('market'))!;
      await makeSut().run();
      const second = (await new SnapshotStore(db).current('market'))!;

      expect(second.id).toBeGreaterThan(first.id);
      expect(second.snapshotTime.getTime()).toBeGreaterThan(first.snapshotTime.getTime());
      expect(second.feedsReadAt).toEqual({ positions, marks });
      expect(answerTime(second, 'holders')).toEqual(positions);
    });

    it("counts trending's periods back from when the trades were read, not from the build", async () => {
      const readAt = new Date(Date.now() - 60 * MINUTE_MS);
      await db.query(`INSERT INTO hl_markets (market, coin, dex, upstream_coin, mark_px, mid_px) VALUES ('perp', 'BTC', '', 'BTC', 100, 100)`);
      // Three buyers in the minutes before the last trades read; an hour without one since (the exchange down).
      for (const [tid, buyer] of [WHALE, MINNOW, '0x' + 'c'.repeat(40)].entries()) {
        await db.query(
          `INSERT INTO hl_trades (coin, tid, time, px, sz, side, buyer, seller)
           VALUES ('BTC', $1, $2::timestamptz - interval '5 minutes', 100, 1, 'B', $3, $4)`,
          [tid, readAt, buyer, '0x' + 'd'.repeat(40)],
        );
      }
      await feeds.stamp('trades', readAt);
      await feeds.stamp('marks', readAt);

      const { details } = await makeSut().run();

      const [row] = await db.query(`SELECT buy_addresses FROM hl_trending WHERE snapshot_id = $1 AND period = '15m' AND coin = 'BTC'`, [details!.snapshotId]);
      expect(row).toEqual({ buy_addresses: 3 });
    });
  });
});
