import { ConfigService } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../src/config/app.config';
import { JobRunsRepository } from '../../src/jobs/job-runs.repository';
import { HyperliquidInfoClient } from '../../src/providers/hyperliquid/hyperliquid-info.client';
import { ClearinghouseState } from '../../src/providers/hyperliquid/hyperliquid.types';
import { HlAddressesRepository } from '../../src/modules/hl/jobs/hl-addresses.repository';
import { HlFeedReadsRepository } from '../../src/modules/hl/jobs/hl-feed-reads.repository';
import { HlStateRepository, PositionRow } from '../../src/modules/hl/jobs/hl-state.repository';
import { PositionsJob } from '../../src/modules/hl/jobs/positions.job';
import { SnapshotJob } from '../../src/modules/hl/jobs/snapshot.job';
import { MarketSnapshotBuilder } from '../../src/modules/hl/snapshot/market-snapshot.builder';
import { partitionName } from '../../src/modules/hl/snapshot/snapshot-tables';
import { SnapshotStore } from '../../src/modules/hl/snapshot/snapshot-store';
import { openTestDbInOwnSchema } from '../support/test-db';

const WHALE = '0x' + 'a'.repeat(40);
const MINNOW = '0x' + 'b'.repeat(40);
const VAULT = '0x' + 'c'.repeat(40);
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * The ingestion jobs' SQL on real PostgreSQL, in a schema of its own (migrated from scratch, dropped at the
 * end) so these tests can empty tables without touching what other suites keep in the shared database.
 */
describe('Hyperliquid ingestion on PostgreSQL', () => {
  let drop: () => Promise<void>;
  let db: DataSource;
  let addresses: HlAddressesRepository;

  beforeAll(async () => {
    ({ db, drop } = await openTestDbInOwnSchema('hl_ingest', 4));
    addresses = new HlAddressesRepository(db);
  });

  afterAll(() => drop());

  beforeEach(async () => {
    await db.query(
      `TRUNCATE hl_addresses, hl_markets, hl_positions, hl_spot_balances, hl_fills, hl_feed_reads, job_runs,
                hl_snapshots, hl_current_snapshots, hl_snapshot_coins`,
    );
  });

  async function accountValue(address: string): Promise<string> {
    const [row] = await db.query(`SELECT account_value::text AS v FROM hl_addresses WHERE address = $1`, [address]);
    return row.v;
  }

  /** Both addresses read a minute ago, next due in ten: what a polling round leaves. */
  async function markPolled(...polled: string[]): Promise<void> {
    await db.query(
      `UPDATE hl_addresses SET polled_at = now() - interval '1 minute', next_poll_at = now() + interval '10 minutes'
        WHERE address = ANY($1::text[])`,
      [polled],
    );
  }

  async function insertPosition(address: string, coin: string, szi: string, dex = ''): Promise<void> {
    await db.query(
      `INSERT INTO hl_positions (address, coin, dex, szi, entry_px, leverage_type, leverage, position_value, unrealized_pnl, margin_used, read_at)
       VALUES ($1, $2, $4, $3, 100, 'cross', 5, 0, 0, 0, now())`,
      [address, coin, szi, dex],
    );
  }

  async function insertBalance(address: string, coin: string, total: string, entryNtl: string | null): Promise<void> {
    await db.query(`INSERT INTO hl_spot_balances (address, coin, token, total, hold, entry_ntl, read_at) VALUES ($1, $2, 0, $3, 0, $4, now())`, [
      address,
      coin,
      total,
      entryNtl,
    ]);
  }

  async function insertMarket(market: 'perp' | 'spot' | 'hip4', coin: string, mid: string): Promise<void> {
    await db.query(
      `INSERT INTO hl_markets (market, coin, dex, upstream_coin, mark_px, mid_px, open_interest, circulating_supply)
       VALUES ($1, $2, '', $2, $3, $3, 1000, 1000000)`,
      [market, coin, mid],
    );
  }

  async function insertFill(address: string, key: string, ageMs: number, coin = 'xyz:TSLA'): Promise<void> {
    await db.query(
      `INSERT INTO hl_fills (address, fill_key, coin, time, px, sz, side, dir, closed_pnl, fee)
       VALUES ($1, $2, $4, now() - $3 * interval '1 millisecond', 400, 1, 'B', 'Open Long', 0, 0.1)`,
      [address, key, ageMs, coin],
    );
  }

  async function insertRun(name: string, ageMs: number): Promise<void> {
    await db.query(
      `INSERT INTO job_runs (name, holder, status, started_at, finished_at)
       VALUES ($1, 'test', 'ok', now() - $2 * interval '1 millisecond', now() - $2 * interval '1 millisecond')`,
      [name, ageMs],
    );
  }

  async function buildSnapshot(builder = new MarketSnapshotBuilder(db)): Promise<number> {
    const store = new SnapshotStore(db);
    const id = await store.begin('market', new Date());
    await builder.build({ snapshotId: id, leaderboardSnapshotId: null, trendingAsOf: new Date() });
    return id;
  }

  /**
   * A builder whose build the mids job interrupts once: right after the first statement matching `after`,
   * every mid moves up 10%. Deterministic, unlike racing the real job.
   */
  function builderWhileMidsMove(after: RegExp): MarketSnapshotBuilder {
    let moved = false;
    const moving = {
      query: async (sql: string, params?: unknown[]) => {
        const result = await db.query(sql, params);
        if (!moved && after.test(sql)) {
          moved = true;
          await db.query(`UPDATE hl_markets SET mid_px = mid_px * 1.1`);
        }
        return result;
      },
    };
    return new MarketSnapshotBuilder(moving as unknown as DataSource);
  }

  async function snapshotCoins(id: number): Promise<Array<Record<string, unknown>>> {
    return db.query(`SELECT market, coin, mark_px::text, holders, coverage::float8 FROM hl_snapshot_coins WHERE snapshot_id = $1 ORDER BY market, coin`, [id]);
  }

  describe('the address universe', () => {
    it('keeps a known account value when an address is seen again without one', async () => {
      const values = new Map([
        [WHALE, '5000000'],
        [MINNOW, '10'],
      ]);
      await addresses.upsertAddresses({ addresses: [WHALE, MINNOW], source: 'leaderboard', accountValues: values });
      await markPolled(WHALE, MINNOW);
      await db.query(`UPDATE hl_addresses SET next_poll_at = now() - interval '1 second'`);

      await addresses.upsertAddresses({ addresses: [WHALE], source: 'trades' });
      await addresses.upsertAddresses({ addresses: [WHALE], source: 'operator', tags: ['desk-a'] });

      expect(await accountValue(WHALE)).toBe('5000000');
      expect((await addresses.dueAddresses({ limit: 10, fullReadIntervalMs: HOUR_MS })).map((d) => d.address)).toEqual([WHALE, MINNOW]);
    });

    it('takes the new value when the source has one, and 0 for an address first seen without one', async () => {
      await addresses.upsertAddresses({ addresses: [WHALE], source: 'leaderboard', accountValues: new Map([[WHALE, '5000000']]) });

      await addresses.upsertAddresses({
        addresses: [WHALE, MINNOW],
        source: 'leaderboard',
        accountValues: new Map([[WHALE, '4000000.5']]),
      });

      expect(await accountValue(WHALE)).toBe('4000000.5');
      expect(await accountValue(MINNOW)).toBe('0');
    });

    it('makes a wallet seen trading after its last read due at once, and not one whose trade that read already saw', async () => {
      await addresses.upsertAddresses({
        addresses: [WHALE, MINNOW],
        source: 'leaderboard',
        accountValues: new Map([
          [WHALE, '5000000'],
          [MINNOW, '10'],
        ]),
      });
      await markPolled(WHALE, MINNOW);
      const now = Date.now();

      await addresses.upsertAddresses({
        addresses: [WHALE, MINNOW],
        source: 'trades',
        lastTradeAt: new Map([
          [MINNOW, now - 5_000],
          [WHALE, now - 2 * MINUTE_MS],
        ]),
      });

      expect((await addresses.dueAddresses({ limit: 10, fullReadIntervalMs: HOUR_MS })).map((d) => d.address)).toEqual([MINNOW]);
      const [row] = await db.query(`SELECT extract(epoch FROM last_active_at) * 1000 AS at FROM hl_addresses WHERE address = $1`, [MINNOW]);
      expect(Math.round(Number(row.at))).toBe(now - 5_000);
    });
  });

  describe('reading HIP-3 dexes', () => {
    const DEXES = ['xyz', 'flx'];
    /** Upstream positions by `address@dex` ('' is the native dex). */
    let upstream: Map<string, Array<{ coin: string; szi: string }>>;
    /** Every perp read the job made, as `address@dex`. */
    let perpReads: string[];
    let spotReads: string[];

    function clearinghouse(positions: Array<{ coin: string; szi: string }>): ClearinghouseState {
      return {
        assetPositions: positions.map(({ coin, szi }) => ({
          coin,
          szi,
          entryPx: '100',
          positionValue: '200',
          unrealizedPnl: '0',
          returnOnEquity: '0',
          liquidationPx: null,
          marginUsed: '40',
          leverage: { type: 'cross', value: 5, rawUsd: null },
          maxLeverage: null,
          cumFunding: null,
        })),
        marginSummary: { accountValue: '1000', totalNtlPos: '200', totalRawUsd: '800', totalMarginUsed: '40' },
        crossMarginSummary: null,
        crossMaintenanceMarginUsed: null,
        withdrawable: '0',
        time: null,
      };
    }

    function makeSut(): PositionsJob {
      const client = {
        clearinghouseState: async (user: string, dex = '') => {
          perpReads.push(`${user}@${dex}`);
          return clearinghouse(upstream.get(`${user}@${dex}`) ?? []);
        },
        spotClearinghouseState: async (user: string) => (spotReads.push(user), { balances: [] }),
      } as unknown as HyperliquidInfoClient;
      const hlJobs = { pollBatch: 100, pollConcurrency: 2, positionsIntervalMs: 5000, fullReadIntervalMs: HOUR_MS };
      const config = { get: (key: string) => (key === 'hlJobs' ? hlJobs : undefined) } as unknown as ConfigService<AppConfig, true>;
      return new PositionsJob(client, new HlStateRepository(db), addresses, new HlFeedReadsRepository(db), config);
    }

    /** Runs one polling round and returns the perp reads it made, sorted. */
    async function pollRound(): Promise<string[]> {
      perpReads = [];
      spotReads = [];
      await makeSut().run();
      return perpReads.sort();
    }

    async function makeDue(): Promise<void> {
      await db.query(`UPDATE hl_addresses SET next_poll_at = now()`);
    }

    async function heldCoins(address: string): Promise<string[]> {
      const rows = await db.query(`SELECT coin FROM hl_positions WHERE address = $1 ORDER BY coin`, [address]);
      return rows.map((r: { coin: string }) => r.coin);
    }

    beforeEach(async () => {
      await db.query(
        `INSERT INTO hl_markets (market, coin, dex, upstream_coin)
         VALUES ('perp', 'BTC', '', 'BTC'), ('perp', 'xyz:TSLA', 'xyz', 'xyz:TSLA'), ('perp', 'flx:GOLD', 'flx', 'flx:GOLD')`,
      );
      upstream = new Map([
        [`${WHALE}@`, [{ coin: 'BTC', szi: '2' }]],
        [`${WHALE}@xyz`, [{ coin: 'xyz:TSLA', szi: '5' }]],
        [`${MINNOW}@`, [{ coin: 'BTC', szi: '-1' }]],
      ]);
      await addresses.upsertAddresses({ addresses: [WHALE, MINNOW], source: 'leaderboard' });
    });

    it('reads every dex on an address its first time, then only native and spot where it holds nothing on HIP-3', async () => {
      expect(await pollRound()).toEqual(
        [`${MINNOW}@`, ...DEXES.map((dex) => `${MINNOW}@${dex}`), `${WHALE}@`, ...DEXES.map((dex) => `${WHALE}@${dex}`)].sort(),
      );

      await makeDue();
      const reads = await pollRound();

      expect(reads.filter((r) => r.startsWith(MINNOW))).toEqual([`${MINNOW}@`]);
      expect(spotReads.sort()).toEqual([WHALE, MINNOW].sort());
      expect(await heldCoins(MINNOW)).toEqual(['BTC']);
    });

    it('reads an address on the HIP-3 dex it holds a position on, and not on the others', async () => {
      await pollRound();
      await makeDue();

      const reads = await pollRound();

      expect(reads.filter((r) => r.startsWith(WHALE))).toEqual([`${WHALE}@`, `${WHALE}@xyz`]);
      expect(await heldCoins(WHALE)).toEqual(['BTC', 'xyz:TSLA']);
    });

    it('reads every dex again once the last full read is older than the interval', async () => {
      await pollRound();
      await db.query(`UPDATE hl_addresses SET full_read_at = now() - interval '61 minutes' WHERE address = $1`, [MINNOW]);
      await makeDue();

      const reads = await pollRound();

      expect(reads.filter((r) => r.startsWith(MINNOW))).toEqual([`${MINNOW}@`, `${MINNOW}@flx`, `${MINNOW}@xyz`]);
      expect(reads.filter((r) => r.startsWith(WHALE))).toEqual([`${WHALE}@`, `${WHALE}@xyz`]);
    });

    it('reads every dex again after a trade since the last read, and picks up a new HIP-3 position at once', async () => {
      await pollRound();
      await makeDue();
      expect((await pollRound()).filter((r) => r.startsWith(MINNOW))).toEqual([`${MINNOW}@`]);
      upstream.set(`${MINNOW}@flx`, [{ coin: 'flx:GOLD', szi: '3' }]);

      await addresses.upsertAddresses({ addresses: [MINNOW], source: 'trades', lastTradeAt: new Map([[MINNOW, Date.now()]]) });
      const reads = await pollRound();

      expect(reads).toEqual([`${MINNOW}@`, `${MINNOW}@flx`, `${MINNOW}@xyz`]);
      expect(await heldCoins(MINNOW)).toEqual(['BTC', 'flx:GOLD']);
    });

    it('reads every dex after a trade made before a partial read but recorded after it', async () => {
      await pollRound();
      await db.query(`UPDATE hl_addresses SET full_read_at = now() - interval '10 minutes', polled_at = now() - interval '10 minutes'`);
      await makeDue();
      await pollRound();
      // Trades are noticed minutes late: this one precedes the partial read, so it is not due at once...
      await addresses.upsertAddresses({ addresses: [MINNOW], source: 'trades', lastTradeAt: new Map([[MINNOW, Date.now() - 5 * MINUTE_MS]]) });
      expect(await addresses.dueAddresses({ limit: 10, fullReadIntervalMs: HOUR_MS })).toEqual([]);
      await makeDue();

      const reads = await pollRound();

      // ...but that read did not look at the dexes the trade may have opened a position on, so the next one does.
      expect(reads.filter((r) => r.startsWith(MINNOW))).toEqual([`${MINNOW}@`, `${MINNOW}@flx`, `${MINNOW}@xyz`]);
      expect(reads.filter((r) => r.startsWith(WHALE))).toEqual([`${WHALE}@`, `${WHALE}@xyz`]);
    });

    it('replaces only the dexes a partial read covered, and every position of an address read in full', async () => {
      await insertPosition(WHALE, 'BTC', '2');
      await insertPosition(WHALE, 'xyz:TSLA', '5', 'xyz');
      await insertPosition(WHALE, 'flx:GOLD', '7', 'flx');
      await insertPosition(MINNOW, 'BTC', '-1');
      await insertPosition(MINNOW, 'flx:GOLD', '1', 'flx');
      await insertBalance(WHALE, 'HYPE', '10', '250');
      const position = (address: string, coin: string, dex: string, szi: string): PositionRow => ({
        address,
        coin,
        dex,
        szi,
        entryPx: '100',
        leverageType: 'cross',
        leverage: '5',
        positionValue: '0',
        unrealizedPnl: '0',
        marginUsed: '0',
        liquidationPx: null,
        cumFunding: null,
      });

      await new HlStateRepository(db).saveAccountStates({
        addresses: [WHALE, MINNOW],
        positions: [position(WHALE, 'ETH', '', '1'), position(MINNOW, 'ETH', '', '4')],
        balances: [],
        accountValues: new Map([
          [WHALE, '1000'],
          [MINNOW, '10'],
        ]),
        errors: new Map(),
        // The whale was read on the native dex and xyz (where it held TSLA, now closed); the minnow in full.
        partialReads: new Map([[WHALE, ['', 'xyz']]]),
        baseIntervalMs: 5000,
      });

      expect(await db.query(`SELECT address, coin, szi::text FROM hl_positions ORDER BY address, coin`)).toEqual([
        { address: WHALE, coin: 'ETH', szi: '1' },
        { address: WHALE, coin: 'flx:GOLD', szi: '7' },
        { address: MINNOW, coin: 'ETH', szi: '4' },
      ]);
      expect(await db.query(`SELECT address FROM hl_spot_balances`)).toEqual([]);
      const fullReads = await db.query(`SELECT address, full_read_at IS NOT NULL AS full FROM hl_addresses ORDER BY address`);
      expect(fullReads).toEqual([
        { address: WHALE, full: false },
        { address: MINNOW, full: true },
      ]);
    });
  });

  describe('vaults', () => {
    it('drops the state of a wallet once it is known to be a vault', async () => {
      await addresses.upsertAddresses({ addresses: [VAULT, WHALE], source: 'trades' });
      await insertPosition(VAULT, 'BTC', '2');
      await insertPosition(WHALE, 'BTC', '-2');
      await insertBalance(VAULT, 'HYPE', '100', '2500');

      await addresses.markVaults([VAULT]);

      expect(await db.query(`SELECT address FROM hl_positions`)).toEqual([{ address: WHALE }]);
      expect(await db.query(`SELECT address FROM hl_spot_balances`)).toEqual([]);
      expect(await addresses.dueAddresses({ limit: 10, fullReadIntervalMs: HOUR_MS })).toEqual([expect.objectContaining({ address: WHALE })]);
    });

    it('never lists a vault in a snapshot, even one whose state is still held', async () => {
      await insertMarket('perp', 'BTC', '100000');
      await insertMarket('spot', 'HYPE', '25');
      await db.query(`INSERT INTO hl_addresses (address, is_vault) VALUES ($1, true)`, [VAULT]);
      // A polling round that read the vault just before it was flagged saves its state after the flag.
      await insertPosition(VAULT, 'BTC', '2');
      await insertPosition(WHALE, 'BTC', '-2');
      await insertBalance(VAULT, 'HYPE', '100', '2500');
      await insertBalance(WHALE, 'HYPE', '10', '250');

      const id = await buildSnapshot();

      expect(await db.query(`SELECT address FROM ${partitionName('hl_perp_holders', id)}`)).toEqual([{ address: WHALE }]);
      expect(await db.query(`SELECT address FROM ${partitionName('hl_spot_holders', id)}`)).toEqual([{ address: WHALE }]);
    });

    it('never lists a vault among smart traders, even one whose fills are still held', async () => {
      await insertMarket('perp', 'xyz:TSLA', '400');
      await insertMarket('hip4', '#0', '0.6');
      await db.query(`INSERT INTO hl_addresses (address, is_vault) VALUES ($1, true)`, [VAULT]);
      // Flagging a vault drops its positions and balances but not the fills stored while it looked like a trader.
      for (const address of [VAULT, WHALE]) {
        await insertFill(address, `${address}-tsla`, MINUTE_MS);
        await insertFill(address, `${address}-yes`, MINUTE_MS, '#0');
      }

      const id = await buildSnapshot();

      expect(await db.query(`SELECT market, address FROM ${partitionName('hl_smart_traders', id)} ORDER BY market`)).toEqual([
        { market: 'hip3', address: WHALE },
        { market: 'hip4', address: WHALE },
      ]);
    });
  });

  describe('one set of marks per snapshot', () => {
    it('values every holder at the mark its snapshot stores, though the mids move during the build', async () => {
      await insertMarket('perp', 'BTC', '100000');
      await insertMarket('perp', 'ETH', '3000');
      await insertMarket('spot', 'HYPE', '25');
      await insertPosition(WHALE, 'BTC', '2');
      await insertPosition(MINNOW, 'BTC', '-1');
      await insertBalance(WHALE, 'HYPE', '10', '200');

      const id = await buildSnapshot(builderWhileMidsMove(/INSERT INTO hl_perp_holders_s/));

      // Coverage: half of |2| + |-1| against an open interest of 1000; 10 against a supply of 1,000,000.
      expect(await snapshotCoins(id)).toEqual([
        { market: 'perp', coin: 'BTC', mark_px: '100000', holders: 2, coverage: 0.0015 },
        { market: 'perp', coin: 'ETH', mark_px: '3000', holders: 0, coverage: 0 },
        { market: 'spot', coin: 'HYPE', mark_px: '25', holders: 1, coverage: 0.00001 },
      ]);
      const perpHolders = await db.query(`SELECT address, mark_price::text, value::text FROM ${partitionName('hl_perp_holders', id)} ORDER BY address`);
      expect(perpHolders).toEqual([
        { address: WHALE, mark_price: '100000', value: '200000.000000' },
        { address: MINNOW, mark_price: '100000', value: '100000.000000' },
      ]);
      expect(await db.query(`SELECT address, value::text FROM ${partitionName('hl_spot_holders', id)}`)).toEqual([{ address: WHALE, value: '250.000000' }]);
    });

    it('values smart traders and trending at the same marks as the holders', async () => {
      await insertMarket('perp', 'xyz:TSLA', '400');
      await insertMarket('hip4', '#0', '0.6');
      await insertPosition(WHALE, 'xyz:TSLA', '2');
      await insertBalance(WHALE, '+0', '10', '5');
      await insertFill(WHALE, 'tsla', MINUTE_MS);
      await insertFill(WHALE, 'yes', MINUTE_MS, '#0');

      const id = await buildSnapshot(builderWhileMidsMove(/INSERT INTO hl_snapshot_coins/));

      const traders = await db.query(
        `SELECT market, coin, unrealized_pnl::text, current_position_notional::text
           FROM ${partitionName('hl_smart_traders', id)} ORDER BY market`,
      );
      expect(traders).toEqual([
        { market: 'hip3', coin: 'xyz:TSLA', unrealized_pnl: '600.000000', current_position_notional: '800.000000' },
        { market: 'hip4', coin: '0', unrealized_pnl: '1.000000', current_position_notional: '0' },
      ]);
      const prices = await db.query(`SELECT DISTINCT coin, price::text FROM ${partitionName('hl_trending', id)}`);
      expect(prices).toEqual([{ coin: 'xyz:TSLA', price: '400' }]);
      // HIP-4 sides are stored too, for the smart traders' outcome tokens.
      expect(await snapshotCoins(id)).toEqual([
        { market: 'hip4', coin: '#0', mark_px: '0.6', holders: 0, coverage: null },
        { market: 'perp', coin: 'xyz:TSLA', mark_px: '400', holders: 1, coverage: 0.001 },
      ]);
    });
  });

  describe('spot cost basis', () => {
    it('treats a zero entry notional (USDC) as unknown, as it treats none', async () => {
      await insertMarket('spot', 'USDC', '1');
      await insertMarket('spot', 'HYPE', '25');
      await insertBalance(WHALE, 'USDC', '2.77363', '0.0');
      await insertBalance(WHALE, 'HYPE', '10', '200');
      await insertBalance(MINNOW, 'HYPE', '1', null);

      const id = await buildSnapshot();

      const rows = await db.query(
        `SELECT coin, address, entry_price::text, entry_ntl::text, upnl::text, roe::text
           FROM ${partitionName('hl_spot_holders', id)} ORDER BY coin, address`,
      );
      expect(rows).toEqual([
        { coin: 'HYPE', address: WHALE, entry_price: '20.00000000', entry_ntl: '200', upnl: '50.000000', roe: '0.25000000' },
        { coin: 'HYPE', address: MINNOW, entry_price: null, entry_ntl: null, upnl: null, roe: null },
        { coin: 'USDC', address: WHALE, entry_price: null, entry_ntl: null, upnl: null, roe: null },
      ]);
    });
  });

  describe('retention', () => {
    it('prunes fills older than the retention, a bounded batch at a time, oldest first', async () => {
      await insertFill(WHALE, 'old-1', 9 * DAY_MS);
      await insertFill(WHALE, 'old-2', 8 * DAY_MS);
      await insertFill(WHALE, 'kept', 6 * DAY_MS);

      expect(await addresses.pruneFills({ olderThanDays: 7, limit: 1 })).toBe(1);
      expect((await db.query(`SELECT fill_key FROM hl_fills ORDER BY fill_key`)).map((r: { fill_key: string }) => r.fill_key)).toEqual(['kept', 'old-2']);
      expect(await addresses.pruneFills({ olderThanDays: 7, limit: 10 })).toBe(1);
      expect(await addresses.pruneFills({ olderThanDays: 7, limit: 10 })).toBe(0);
    });

    it("prunes job runs older than the retention but keeps each job's newest run", async () => {
      await insertRun('hl.mids', 10 * DAY_MS);
      await insertRun('hl.mids', 9 * DAY_MS);
      await insertRun('hl.mids', MINUTE_MS);
      await insertRun('hl.leaderboard', 30 * DAY_MS);

      expect(await new JobRunsRepository(db).prune({ olderThanDays: 7, limit: 100 })).toBe(2);

      const left = await db.query(`SELECT name, round(extract(epoch FROM now() - started_at) / 86400) AS days FROM job_runs ORDER BY name`);
      expect(left).toEqual([
        { name: 'hl.leaderboard', days: '30' },
        { name: 'hl.mids', days: '0' },
      ]);
    });

    it('prunes fills on every snapshot run, after it publishes, and leaves run records to housekeeping.job-runs', async () => {
      await insertFill(WHALE, 'old', 8 * DAY_MS);
      await insertFill(WHALE, 'recent', DAY_MS);
      await insertRun('hl.mids', 8 * DAY_MS);
      await insertRun('hl.mids', MINUTE_MS);
      const settings: Record<string, unknown> = { 'hlJobs.snapshotRetention': 3, 'hlJobs.fillsRetentionDays': 7, 'jobs.runsRetentionDays': 7 };
      const config = { get: (key: string) => settings[key] } as unknown as ConfigService<AppConfig, true>;
      const sut = new SnapshotJob(new SnapshotStore(db), new MarketSnapshotBuilder(db), addresses, new HlFeedReadsRepository(db), config);

      const outcome = await sut.run();

      expect(outcome.details).toMatchObject({ prunedFills: 1 });
      expect(await db.query(`SELECT fill_key FROM hl_fills`)).toEqual([{ fill_key: 'recent' }]);
      expect(await db.query(`SELECT count(*)::int AS n FROM job_runs`)).toEqual([{ n: 2 }]);
      expect(await new SnapshotStore(db).current('market')).toMatchObject({ id: outcome.details!.snapshotId });
    });
  });
});
