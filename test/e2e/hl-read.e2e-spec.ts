import { HlCatalogService } from '../../src/modules/hl/hl-catalog.service';
import { LEADERBOARD_SORTS, SMART_TRADER_SORTS } from '../../src/modules/hl/hl-params';
import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { HL_SEED, publishHlLeaderboardSnapshot, publishHlMarketSnapshot, SEED_MIDS, SEED_TAGS, seedAddress, seedHlReference } from '../support/hl-seed';
import { get } from '../support/http';
import { resetDb } from '../support/reset-db';
import { testConfig } from '../support/test-env';

type Data = Record<string, any>;

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const PERP_HOLDER_KEYS = [
  'address',
  'side',
  'coin',
  'size',
  'value',
  'entryPrice',
  'leverage',
  'uPnl',
  'roe',
  'marginUsed',
  'liquidationPrice',
  'markPrice',
  'cumFunding',
  'supplyPercentage',
  'addressTags',
];
const SPOT_HOLDER_KEYS = ['address', 'coin', 'balance', 'value', 'entryPrice', 'entryNtl', 'uPnl', 'roe', 'supplyPercentage', 'addressTags'];
const HIP4_TRADER_KEYS = ['userAddress', 'totalBuyUsd', 'totalSellUsd', 'realizedPnl', 'unrealizedPnl', 'pnl', 'pnlPct', 'tradeCount', 'lastTradeAt'];
const HIP3_TRADER_KEYS = [...HIP4_TRADER_KEYS, 'totalFeeUsd', 'netPositionSz', 'currentPositionNotional'];
const SNAPSHOT_ROUTES = [
  '/hl/spot/holders?coin=HYPE',
  '/hl/perp/holders?coin=BTC',
  '/hl/perp/liquidation-map?coin=BTC',
  '/hl/trending',
  '/hl/leaderboard',
  '/hl/hip3/smart-trader?coin=xyz:TSLA',
  '/hl/hip4/smart-trader?outcomeId=0',
];
/** Leaderboard sort → hl_leaderboard value column. */
const LEADERBOARD_COLUMNS: Record<string, string> = Object.fromEntries(
  LEADERBOARD_SORTS.map((sort) => [sort, sort === 'accountValue' ? 'account_value' : sort.replace('allTime', 'all_time')]),
);
const SMART_TRADER_COLUMNS: Record<string, string> = {
  pnl: 'pnl',
  pnlPct: 'pnl_pct',
  tradeCount: 'trade_count',
  totalBuyUsd: 'total_buy_usd',
  totalSellUsd: 'total_sell_usd',
  realizedPnl: 'realized_pnl',
  unrealizedPnl: 'unrealized_pnl',
  lastTradeAt: 'last_trade_at',
};

describe('Exchange-chain analytics reads (/hl)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    // Jobs off: the test owns every snapshot that gets published.
    t = await createTestApp(testConfig({ HL_JOBS_ENABLED: 'false' }));
    await resetDb(t.db);
    t.app.get(HlCatalogService).invalidate();
    ({ key } = await makeAccount(t, { tier: 'max' }));
    await seedHlReference(t.db);
  });
  afterAll(() => t.close());

  const call = (path: string) => get(t, path, key);

  /** 200 with the envelope; returns data. */
  async function ok(path: string, cost = '1'): Promise<Data> {
    const res = await call(path);
    expect({ path, status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ path, status: 200, body: 'ok' });
    expect(res.body.code).toBe('0');
    expect(res.headers['x-credits-cost']).toBe(cost);
    return res.body.data;
  }

  async function expectInvalid(path: string, field: string, msg?: string | RegExp): Promise<void> {
    const res = await call(path);
    expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 400, code: 'VALIDATION_ERROR' });
    expect(res.body.msg).toMatch(new RegExp(`^${field}\\b`));
    if (msg !== undefined) expect(res.body.msg).toMatch(msg);
    expect(res.body.data).toBeNull();
    expect(res.headers['x-credits-cost']).toBe('0');
  }

  /** Follows nextCursor from `path` to the end; returns every page. */
  async function walk(path: string): Promise<Data[]> {
    const pages: Data[] = [];
    let cursor: string | null = null;
    do {
      const data = await ok(cursor === null ? path : `${path}&cursor=${encodeURIComponent(cursor)}`);
      pages.push(data);
      cursor = data.nextCursor;
    } while (cursor !== null && pages.length < 100);
    return pages;
  }

  async function currentSnapshotId(kind: 'market' | 'leaderboard'): Promise<number> {
    const [row] = await t.db.query(`SELECT snapshot_id FROM hl_current_snapshots WHERE kind = $1`, [kind]);
    return Number(row.snapshot_id);
  }

  async function addresses(sql: string, params: unknown[]): Promise<string[]> {
    return (await t.db.query(sql, params)).map((r: { address: string }) => r.address);
  }

  describe('before the first snapshot', () => {
    it.each(SNAPSHOT_ROUTES)('answers %s with 502 MARKET_UPSTREAM_ERROR, unbilled', async (path) => {
      const res = await call(path);
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ code: 'MARKET_UPSTREAM_ERROR', msg: 'no snapshot published yet', data: null });
      expect(res.headers['x-credits-cost']).toBe('0');
    });

    // The catalogue of coins and outcomes exists before any snapshot, so a bad one is the caller's error.
    it.each([
      ['/hl/spot/holders?coin=FOO', 'coin'],
      ['/hl/perp/holders?coin=FOO', 'coin'],
      ['/hl/perp/liquidation-map?coin=FOO', 'coin'],
      ['/hl/hip3/smart-trader?coin=BTC', 'coin'],
      ['/hl/hip4/smart-trader?outcomeId=7', 'outcomeId'],
    ])('answers %s with 400 naming %s, not 502', async (path, field) => {
      await expectInvalid(path, field, /unknown/);
    });

    // Nor does a cursor or a page depend on a snapshot.
    it.each([
      ['/hl/perp/holders?coin=BTC&cursor=bm90LWEtY3Vyc29y', 'cursor'],
      ['/hl/spot/holders?coin=HYPE&cursor=bm90LWEtY3Vyc29y', 'cursor'],
      ['/hl/leaderboard?cursor=bm90LWEtY3Vyc29y', 'cursor'],
      ['/hl/perp/holders?coin=BTC&page=1000&limit=100', 'page'],
      ['/hl/leaderboard?page=1000&limit=100', 'page'],
      [`/hl/perp/holders?coin=BTC&address=0x${'a'.repeat(40)}&cursor=bm90LWEtY3Vyc29y`, 'cursor'],
    ])('answers %s with 400 naming %s, not 502', async (path, field) => {
      await expectInvalid(path, field, /./);
    });

    it('serves the mids, which need no snapshot', async () => {
      const data = await ok('/hl/prices/mids');
      expect(Object.keys(data.mids).sort()).toEqual(Object.keys(SEED_MIDS).sort());
    });
  });

  describe('with published snapshots', () => {
    let marketId: number;
    let leaderboardId: number;

    beforeAll(async () => {
      marketId = await publishHlMarketSnapshot(t, { deep: true });
      leaderboardId = await publishHlLeaderboardSnapshot(t);
    });

    describe('GET /hl/prices/mids', () => {
      it('equals hl_mids with canonical decimals', async () => {
        const data = await ok('/hl/prices/mids');
        expect(data).toEqual({ mids: { ...SEED_MIDS, HYPE: '25.01' } });
      });

      it('is sent as JSON although it is served from text serialised once per refresh', async () => {
        const res = await call('/hl/prices/mids');
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
      });
    });

    describe('GET /hl/perp/holders', () => {
      it('answers the contract shape with the defaults (value, desc, page 1, limit 100)', async () => {
        const data = await ok('/hl/perp/holders?coin=BTC');
        expect(Object.keys(data).sort()).toEqual(['coin', 'hasMore', 'items', 'limit', 'market', 'nextCursor', 'page', 'total', 'updatedAt']);
        expect(data).toEqual(
          expect.objectContaining({
            market: 'perp',
            coin: 'BTC',
            page: 1,
            limit: 100,
            total: HL_SEED.btc.holders,
            hasMore: true,
            nextCursor: expect.any(String),
            updatedAt: HL_SEED.snapshotTime.toISOString(),
          }),
        );
        expect(data.items).toHaveLength(100);
        for (const item of data.items) {
          expect(Object.keys(item).sort()).toEqual([...PERP_HOLDER_KEYS].sort());
          for (const field of PERP_HOLDER_KEYS.filter((k) => !['addressTags', 'liquidationPrice', 'cumFunding'].includes(k))) {
            expect(typeof item[field]).toBe('string');
          }
          expect(item.address).toMatch(/^0x[0-9a-f]{40}$/);
          expect(['long', 'short']).toContain(item.side);
          expect(item.addressTags).toEqual(SEED_TAGS[item.address] ?? []);
        }
        const expected = await addresses(
          `SELECT address FROM hl_perp_holders WHERE snapshot_id = $1 AND coin = 'BTC' ORDER BY value DESC, address DESC LIMIT 100`,
          [marketId],
        );
        expect(data.items.map((i: Data) => i.address)).toEqual(expected);
        // Canonical decimals: no trailing zeros, no exponent.
        expect(data.items.every((i: Data) => !/\.\d*0$|e/i.test(i.value))).toBe(true);
        expect(data.items[0].markPrice).toBe('100000');
      });

      it('resolves coins case-insensitively to their canonical spelling', async () => {
        expect((await ok('/hl/perp/holders?coin=btc&limit=1')).coin).toBe('BTC');
        expect((await ok('/hl/perp/holders?coin=XYZ:tsla&limit=1')).coin).toBe('xyz:TSLA');
      });

      it.each([
        ['coin=FOO', 'coin', /^coin: unknown coin "FOO"/],
        ['coin=HYPE', 'coin', /unknown coin "HYPE"/],
        ['', 'coin', undefined],
        ['coin=BTC&limit=501', 'limit', undefined],
        ['coin=BTC&limit=0', 'limit', undefined],
        ['coin=BTC&sortBy=size', 'sortBy', undefined],
        ['coin=BTC&order=DESC', 'order', undefined],
        ['coin=BTC&page=101&limit=100', 'page', /10000/],
        ['coin=BTC&address=0x123', 'address', undefined],
        ['coin=BTC&bogus=1', 'bogus', undefined],
      ])('rejects ?%s naming %s', async (query, field, msg) => {
        await expectInvalid(`/hl/perp/holders?${query}`, field, msg);
      });

      it.each([
        ['value', 'desc'],
        ['value', 'asc'],
        ['pnl', 'desc'],
        ['pnl', 'asc'],
      ])('visits every BTC holder exactly once by cursor (sortBy %s, order %s)', async (sortBy, order) => {
        const column = sortBy === 'value' ? 'value' : 'upnl';
        const direction = order === 'desc' ? 'DESC' : 'ASC';
        const expected = await addresses(
          `SELECT address FROM hl_perp_holders WHERE snapshot_id = $1 AND coin = 'BTC' ORDER BY ${column} ${direction}, address ${direction}`,
          [marketId],
        );
        const pages = await walk(`/hl/perp/holders?coin=BTC&sortBy=${sortBy}&order=${order}&limit=100`);
        const seen = pages.flatMap((p) => p.items.map((i: Data) => i.address));
        expect(pages).toHaveLength(Math.ceil(HL_SEED.btc.holders / 100));
        expect(seen).toHaveLength(HL_SEED.btc.holders);
        expect(new Set(seen).size).toBe(HL_SEED.btc.holders);
        expect(seen).toEqual(expected);
        expect(pages.map((p) => p.page)).toEqual(pages.map((_, i) => i + 1));
        expect(pages.every((p) => p.total === HL_SEED.btc.holders)).toBe(true);
        expect(pages.slice(0, -1).every((p) => p.hasMore === true && p.items.length === 100)).toBe(true);
        expect(pages.at(-1)).toEqual(expect.objectContaining({ hasMore: false, nextCursor: null }));
      });

      it('ignores page when a cursor is given', async () => {
        const first = await ok('/hl/perp/holders?coin=BTC&limit=50');
        const second = await ok('/hl/perp/holders?coin=BTC&limit=50&page=2');
        const viaCursor = await ok(`/hl/perp/holders?coin=BTC&limit=50&page=7&cursor=${encodeURIComponent(first.nextCursor)}`);
        expect(viaCursor.items).toEqual(second.items);
        expect(viaCursor.page).toBe(2);
        expect(viaCursor.nextCursor).toBe(second.nextCursor);
      });

      it('does not validate page when a cursor is given, but still validates limit', async () => {
        const first = await ok('/hl/perp/holders?coin=BTC&limit=50');
        const cursor = encodeURIComponent(first.nextCursor);
        const second = await ok(`/hl/perp/holders?coin=BTC&limit=50&cursor=${cursor}`);
        for (const page of ['0', '-1', 'abc']) {
          expect(await ok(`/hl/perp/holders?coin=BTC&limit=50&page=${page}&cursor=${cursor}`)).toEqual(second);
        }
        await expectInvalid(`/hl/perp/holders?coin=BTC&limit=501&page=0&cursor=${cursor}`, 'limit');
        await expectInvalid('/hl/perp/holders?coin=BTC&limit=50&page=0', 'page');
      });

      it('refuses tampered, hand-made and mismatched cursors', async () => {
        const { nextCursor: cursor } = await ok('/hl/perp/holders?coin=BTC&limit=100');
        const [payload, mac] = cursor.split('.');
        const flipped = payload.slice(0, 6) + (payload[6] === 'A' ? 'B' : 'A') + payload.slice(7);
        const handMade = `${Buffer.concat([Buffer.from([1]), Buffer.from(JSON.stringify({ b: 'x', r: 100, k: [] }))]).toString('base64url')}.${Buffer.alloc(16).toString('base64url')}`;
        const c = encodeURIComponent;
        for (const query of [
          `coin=BTC&limit=100&cursor=${c(`${flipped}.${mac}`)}`,
          `coin=BTC&limit=100&cursor=${c(handMade)}`,
          `coin=BTC&limit=100&cursor=not-a-cursor`,
          `coin=ETH&limit=100&cursor=${c(cursor)}`,
          `coin=BTC&limit=100&order=asc&cursor=${c(cursor)}`,
          `coin=BTC&limit=100&sortBy=pnl&cursor=${c(cursor)}`,
          `coin=BTC&limit=50&cursor=${c(cursor)}`,
        ]) {
          await expectInvalid(`/hl/perp/holders?${query}`, 'cursor');
        }
        await expectInvalid(`/hl/spot/holders?coin=HYPE&limit=100&cursor=${c(cursor)}`, 'cursor');
      });

      it('continues past 10,000 rows by cursor while page-based access there is refused', async () => {
        await expectInvalid('/hl/perp/holders?coin=ETH&limit=500&page=21', 'page');
        const last = await ok('/hl/perp/holders?coin=ETH&limit=500&page=20');
        expect(last).toEqual(expect.objectContaining({ total: HL_SEED.eth.holders, hasMore: true }));
        const deep = await ok(`/hl/perp/holders?coin=ETH&limit=500&cursor=${encodeURIComponent(last.nextCursor)}`);
        const expected = await addresses(
          `SELECT address FROM hl_perp_holders WHERE snapshot_id = $1 AND coin = 'ETH' AND rank_value > 10000 ORDER BY rank_value`,
          [marketId],
        );
        expect(deep.items.map((i: Data) => i.address)).toEqual(expected);
        expect(deep).toEqual(expect.objectContaining({ page: 21, hasMore: false, nextCursor: null }));
        expect(deep.items).toHaveLength(HL_SEED.eth.holders - 10_000);
      });

      it('filters by one address, case-insensitively, without paging', async () => {
        const whale = seedAddress(1);
        const data = await ok(`/hl/perp/holders?coin=BTC&address=${whale}`);
        expect(data).toEqual(expect.objectContaining({ total: 1, hasMore: false, nextCursor: null, page: 1 }));
        expect(data.items).toEqual([expect.objectContaining({ address: whale, coin: 'BTC', addressTags: ['whale', 'smart'] })]);
        const lettered = seedAddress(0xab);
        const upper = await ok(`/hl/perp/holders?coin=BTC&address=0x${lettered.slice(2).toUpperCase()}`);
        expect(upper.items).toEqual([expect.objectContaining({ address: lettered, addressTags: [] })]);
        const none = await ok(`/hl/perp/holders?coin=BTC&address=0x${'f'.repeat(40)}`);
        expect(none).toEqual(expect.objectContaining({ items: [], total: 0, hasMore: false, nextCursor: null }));
        const { nextCursor } = await ok('/hl/perp/holders?coin=BTC&limit=10');
        await expectInvalid(`/hl/perp/holders?coin=BTC&limit=10&address=${whale}&cursor=${encodeURIComponent(nextCursor)}`, 'cursor');
      });

      it('serves HIP-3 coins, with null liquidation price and funding where the source has none', async () => {
        const data = await ok('/hl/perp/holders?coin=xyz:TSLA');
        expect(data).toEqual(expect.objectContaining({ coin: 'xyz:TSLA', total: 10, hasMore: false, nextCursor: null }));
        const noLiquidation = data.items.find((i: Data) => i.address === seedAddress(10));
        expect(noLiquidation).toEqual(expect.objectContaining({ liquidationPrice: null, cumFunding: null, side: 'short' }));
        expect(data.items[0]).toEqual(expect.objectContaining({ address: seedAddress(8), value: '2000000', liquidationPrice: '600' }));
      });

      it('answers an empty list for a listed coin without holders in the snapshot', async () => {
        const data = await ok('/hl/perp/holders?coin=SOL');
        expect(data).toEqual(expect.objectContaining({ coin: 'SOL', items: [], total: 0, hasMore: false, nextCursor: null }));
      });
    });

    describe('GET /hl/spot/holders', () => {
      it('answers the contract shape, with nulls where there is no entry notional', async () => {
        const data = await ok('/hl/spot/holders?coin=hype');
        expect(Object.keys(data).sort()).toEqual(['coin', 'hasMore', 'items', 'limit', 'market', 'nextCursor', 'page', 'total', 'updatedAt']);
        expect(data).toEqual(
          expect.objectContaining({
            market: 'spot',
            coin: 'HYPE',
            page: 1,
            limit: 100,
            total: HL_SEED.hype.holders,
            hasMore: false,
            nextCursor: null,
            updatedAt: HL_SEED.snapshotTime.toISOString(),
          }),
        );
        expect(data.items).toHaveLength(HL_SEED.hype.holders);
        for (const item of data.items) expect(Object.keys(item).sort()).toEqual([...SPOT_HOLDER_KEYS].sort());
        const withoutEntry = data.items.find((i: Data) => i.address === seedAddress(4));
        expect(withoutEntry).toEqual(expect.objectContaining({ entryPrice: null, entryNtl: null, uPnl: null, roe: null }));
        const withEntry = data.items.find((i: Data) => i.address === seedAddress(1));
        expect(withEntry).toEqual(expect.objectContaining({ entryNtl: expect.any(String), roe: '0.11111111', addressTags: ['whale', 'smart'] }));
      });

      it.each(['desc', 'asc'])('visits every holder exactly once by cursor (order %s)', async (order) => {
        const direction = order === 'desc' ? 'DESC' : 'ASC';
        const expected = await addresses(
          `SELECT address FROM hl_spot_holders WHERE snapshot_id = $1 AND coin = 'HYPE' ORDER BY value ${direction}, address ${direction}`,
          [marketId],
        );
        const pages = await walk(`/hl/spot/holders?coin=HYPE&order=${order}&limit=10`);
        expect(pages).toHaveLength(6);
        expect(pages.flatMap((p) => p.items.map((i: Data) => i.address))).toEqual(expected);
      });

      it.each([
        ['coin=BTC', 'coin', /unknown coin "BTC"/],
        ['coin=HYPE&limit=501', 'limit', undefined],
        ['coin=HYPE&order=up', 'order', undefined],
        ['coin=HYPE&sortBy=pnl', 'sortBy', /not a known parameter/],
        ['coin=HYPE&page=0', 'page', undefined],
      ])('rejects ?%s naming %s', async (query, field, msg) => {
        await expectInvalid(`/hl/spot/holders?${query}`, field, msg);
      });

      it('filters by address', async () => {
        const data = await ok(`/hl/spot/holders?coin=HYPE&address=${seedAddress(3)}`);
        expect(data.items).toEqual([expect.objectContaining({ address: seedAddress(3), addressTags: ['vault'] })]);
        expect(data.total).toBe(1);
      });

      it('answers an empty list for a listed token without holders', async () => {
        expect(await ok('/hl/spot/holders?coin=PURR')).toEqual(expect.objectContaining({ items: [], total: 0, hasMore: false, nextCursor: null }));
      });
    });

    describe('GET /hl/perp/liquidation-map', () => {
      it('bins the seeded positions over [0.5 × mark, 1.5 × mark] in 40 bins', async () => {
        const data = await ok('/hl/perp/liquidation-map?coin=xyz:tsla', '2');
        expect(data.coin).toBe('xyz:TSLA');
        expect(data.heatmap).toHaveLength(40);
        data.heatmap.forEach((bin: Data, i: number) => {
          expect(bin).toEqual(expect.objectContaining({ coin: 'xyz:TSLA', priceBinIndex: i, priceBinStart: 200 + i * 10, priceBinEnd: 210 + i * 10 }));
        });
        const filled = data.heatmap
          .filter((b: Data) => b.positionsCount > 0)
          .map((b: Data) => [b.priceBinIndex, b.liquidationValue, b.positionsCount, b.mostImpactedSegment]);
        expect(filled).toEqual([
          [0, 63000, 3, 2],
          [10, 20000, 3, 2],
          [25, 150000, 1, 3],
          [39, 2000000, 1, 4],
        ]);
        expect(data.heatmap.filter((b: Data) => b.positionsCount === 0).every((b: Data) => b.liquidationValue === 0 && b.mostImpactedSegment === 0)).toBe(true);
      });

      it('sums to the positions whose liquidation price is in range', async () => {
        const data = await ok('/hl/perp/liquidation-map?coin=BTC', '2');
        const [expected] = await t.db.query(
          `SELECT sum(abs(value))::text AS total, count(*)::int AS n FROM hl_perp_holders
            WHERE snapshot_id = $1 AND coin = 'BTC' AND liquidation_price BETWEEN 50000 AND 150000`,
          [marketId],
        );
        const total = data.heatmap.reduce((sum: number, b: Data) => sum + b.liquidationValue, 0);
        expect(total).toBeCloseTo(Number(expected.total), 2);
        expect(data.heatmap.reduce((sum: number, b: Data) => sum + b.positionsCount, 0)).toBe(expected.n);
        expect(data.heatmap[0].priceBinStart).toBe(50000);
        expect(data.heatmap[39].priceBinEnd).toBe(150000);
        for (const bin of data.heatmap) {
          expect(typeof bin.liquidationValue).toBe('number');
          expect([0, 1, 2, 3, 4]).toContain(bin.mostImpactedSegment);
        }
      });

      it.each([
        ['coin=FOO', 'coin'],
        ['coin=HYPE', 'coin'],
        ['', 'coin'],
      ])('rejects ?%s naming %s', async (query, field) => {
        await expectInvalid(`/hl/perp/liquidation-map?${query}`, field);
      });
    });

    describe('GET /hl/trending', () => {
      it('answers both lists by default (1h, all), ranked and paged separately', async () => {
        const data = await ok('/hl/trending');
        expect(Object.keys(data).sort()).toEqual(['period', 'perp', 'snapshot_height', 'snapshot_time', 'spot']);
        expect(data).toEqual(expect.objectContaining({ period: '1h', snapshot_height: marketId, snapshot_time: HL_SEED.snapshotTime.toISOString() }));
        expect(data.perp.pagination).toEqual({ page: 1, limit: 50, total: HL_SEED.trending.perp, hasMore: true });
        expect(data.spot.pagination).toEqual({ page: 1, limit: 50, total: HL_SEED.trending.spot, hasMore: false });
        expect(data.perp.items.map((i: Data) => i.coin)).toEqual(Array.from({ length: 50 }, (_, r) => `PERP-1h-${String(r + 1).padStart(3, '0')}`));
        expect(data.spot.items[0]).toEqual({
          coin: 'SPOT-1h-001',
          price: '10.5',
          priceChange: '-9.5',
          buyAddresses: 99,
          sellAddresses: 89,
          smartBuy: 1,
          smartSell: 1,
          buyOrderAmountChange: '-899.5',
          sellOrderAmountChange: '490',
        });
      });

      it('answers only the chosen market, for the chosen period and page', async () => {
        const spot = await ok('/hl/trending?market=spot&period=15m');
        expect(Object.keys(spot).sort()).toEqual(['period', 'snapshot_height', 'snapshot_time', 'spot']);
        expect(spot.spot.items[0].coin).toBe('SPOT-15m-001');
        const perp = await ok('/hl/trending?market=perp&period=24h&page=2');
        expect(Object.keys(perp).sort()).toEqual(['period', 'perp', 'snapshot_height', 'snapshot_time']);
        expect(perp.perp.items.map((i: Data) => i.coin)).toEqual(Array.from({ length: 10 }, (_, r) => `PERP-24h-${String(r + 51).padStart(3, '0')}`));
        expect(perp.perp.pagination).toEqual({ page: 2, limit: 50, total: HL_SEED.trending.perp, hasMore: false });
      });

      it.each([
        ['period=2h', 'period'],
        ['market=options', 'market'],
        ['limit=201', 'limit'],
        ['page=201&limit=50', 'page'],
      ])('rejects ?%s naming %s', async (query, field) => {
        await expectInvalid(`/hl/trending?${query}`, field);
      });
    });

    describe('GET /hl/leaderboard', () => {
      it('answers the contract shape with the defaults (pnl_day, desc, limit 100)', async () => {
        const data = await ok('/hl/leaderboard');
        expect(Object.keys(data).sort()).toEqual(['hasMore', 'items', 'limit', 'nextCursor', 'page', 'total', 'updatedAt']);
        expect(data).toEqual(
          expect.objectContaining({
            page: 1,
            limit: 100,
            total: HL_SEED.leaderboardRows,
            hasMore: true,
            nextCursor: expect.any(String),
            updatedAt: HL_SEED.snapshotTime.toISOString(),
          }),
        );
        const first = data.items[0];
        expect(Object.keys(first)).toEqual(['ethAddress', 'accountValue', 'windowPerformances']);
        expect(first.windowPerformances.map((w: [string, unknown]) => w[0])).toEqual(['day', 'week', 'month', 'allTime']);
        const [row] = await t.db.query(
          `SELECT account_value::text, pnl_day::text, roi_day::text, vlm_day::text, pnl_all_time::text, roi_all_time::text, vlm_all_time::text
             FROM hl_leaderboard WHERE snapshot_id = $1 AND address = $2`,
          [leaderboardId, first.ethAddress],
        );
        const canonical = (v: string) => String(Number(v));
        expect(first.accountValue).toBe(canonical(row.account_value));
        expect(first.windowPerformances[0][1]).toEqual({ pnl: canonical(row.pnl_day), roi: canonical(row.roi_day), vlm: canonical(row.vlm_day) });
        expect(first.windowPerformances[3][1]).toEqual({
          pnl: canonical(row.pnl_all_time),
          roi: canonical(row.roi_all_time),
          vlm: canonical(row.vlm_all_time),
        });
      });

      it.each(LEADERBOARD_SORTS)('ranks by %s in both orders', async (sort) => {
        const column = LEADERBOARD_COLUMNS[sort];
        for (const [order, direction] of [
          ['desc', 'DESC'],
          ['asc', 'ASC'],
        ]) {
          const expected = await addresses(`SELECT address FROM hl_leaderboard WHERE snapshot_id = $1 ORDER BY ${column} ${direction}, address ${direction}`, [
            leaderboardId,
          ]);
          const data = await ok(`/hl/leaderboard?sort=${sort}&order=${order}&limit=500`);
          expect(data.items.map((i: Data) => i.ethAddress)).toEqual(expected);
          expect(data).toEqual(expect.objectContaining({ total: HL_SEED.leaderboardRows, hasMore: false, nextCursor: null }));
        }
      });

      it('walks every account exactly once by cursor', async () => {
        const pages = await walk('/hl/leaderboard?sort=roi_week&order=asc&limit=100');
        const seen = pages.flatMap((p) => p.items.map((i: Data) => i.ethAddress));
        expect(pages).toHaveLength(3);
        expect(new Set(seen).size).toBe(HL_SEED.leaderboardRows);
      });

      it.each([
        ['sort=pnl_year', 'sort'],
        ['sort=PNL_DAY', 'sort'],
        ['order=random', 'order'],
        ['limit=501', 'limit'],
        ['page=101&limit=100', 'page'],
      ])('rejects ?%s naming %s', async (query, field) => {
        await expectInvalid(`/hl/leaderboard?${query}`, field);
      });

      it('does not validate page when a cursor is given', async () => {
        const { nextCursor } = await ok('/hl/leaderboard?limit=100');
        const viaCursor = await ok(`/hl/leaderboard?limit=100&page=0&cursor=${encodeURIComponent(nextCursor)}`);
        expect(viaCursor).toEqual(await ok(`/hl/leaderboard?limit=100&page=2`));
      });

      it('refuses a cursor minted for another sort', async () => {
        const { nextCursor } = await ok('/hl/leaderboard?limit=100');
        await expectInvalid(`/hl/leaderboard?limit=100&sort=vlm_day&cursor=${encodeURIComponent(nextCursor)}`, 'cursor');
      });
    });

    describe('GET /hl/hip3/smart-trader', () => {
      it('answers the contract shape with the defaults (pnlPct, desc, limit 50)', async () => {
        const data = await ok('/hl/hip3/smart-trader?coin=xyz:TSLA', '2');
        expect(Object.keys(data).sort()).toEqual(['coin', 'hasMore', 'items', 'limit', 'markPx', 'page', 'total', 'updatedAt']);
        expect(data).toEqual(
          expect.objectContaining({
            coin: 'xyz:TSLA',
            markPx: '400',
            page: 1,
            limit: 50,
            total: HL_SEED.tsla.traders,
            hasMore: true,
            updatedAt: HL_SEED.snapshotTime.toISOString(),
          }),
        );
        for (const item of data.items) {
          expect(Object.keys(item).sort()).toEqual([...HIP3_TRADER_KEYS].sort());
          expect(Number.isInteger(item.tradeCount)).toBe(true);
          expect(item.lastTradeAt).toMatch(ISO_MS);
          expect(typeof item.pnlPct).toBe('string');
        }
        const expected = await addresses(
          `SELECT address FROM hl_smart_traders WHERE snapshot_id = $1 AND market = 'hip3' AND coin = 'xyz:TSLA'
            ORDER BY pnl_pct DESC, address DESC LIMIT 50`,
          [marketId],
        );
        expect(data.items.map((i: Data) => i.userAddress)).toEqual(expected);
        const second = await ok('/hl/hip3/smart-trader?coin=xyz:TSLA&page=2', '2');
        expect(second).toEqual(expect.objectContaining({ page: 2, hasMore: false }));
        expect(second.items).toHaveLength(HL_SEED.tsla.traders - 50);
      });

      it.each(SMART_TRADER_SORTS)('sorts by %s', async (sort) => {
        const expected = await addresses(
          `SELECT address FROM hl_smart_traders WHERE snapshot_id = $1 AND market = 'hip3' AND coin = 'xyz:TSLA'
            ORDER BY ${SMART_TRADER_COLUMNS[sort]} ASC, address ASC LIMIT 200`,
          [marketId],
        );
        const data = await ok(`/hl/hip3/smart-trader?coin=xyz:TSLA&sort=${sort}&order=asc&limit=200`, '2');
        expect(data.items.map((i: Data) => i.userAddress)).toEqual(expected);
      });

      it('filters by address', async () => {
        const trader = seedAddress(0x4a);
        const data = await ok(`/hl/hip3/smart-trader?coin=xyz:TSLA&address=0x${trader.slice(2).toUpperCase()}`, '2');
        expect(data.total).toBe(1);
        expect(data.items).toEqual([expect.objectContaining({ userAddress: trader })]);
      });

      it.each([
        ['coin=BTC', 'coin', /unknown coin "BTC"/],
        ['coin=FOO', 'coin', undefined],
        ['', 'coin', undefined],
        ['coin=xyz:TSLA&sort=totalFeeUsd', 'sort', undefined],
        ['coin=xyz:TSLA&limit=201', 'limit', undefined],
        ['coin=xyz:TSLA&page=201&limit=50', 'page', undefined],
      ])('rejects ?%s naming %s', async (query, field, msg) => {
        await expectInvalid(`/hl/hip3/smart-trader?${query}`, field, msg);
      });
    });

    describe('GET /hl/hip4/smart-trader', () => {
      it('answers the outcome with both sides merged and the YES mark its snapshot stored as markPx', async () => {
        const data = await ok('/hl/hip4/smart-trader?outcomeId=0', '2');
        expect(Object.keys(data).sort()).toEqual(['hasMore', 'items', 'limit', 'markPx', 'outcomeId', 'outcomeName', 'page', 'sides', 'total', 'updatedAt']);
        expect(data).toEqual(
          expect.objectContaining({
            outcomeId: '0',
            outcomeName: HL_SEED.outcome.name,
            markPx: HL_SEED.outcome.snapshotYesMark,
            sides: ['YES', 'NO'],
            page: 1,
            limit: 50,
            total: HL_SEED.outcome.traders,
            hasMore: false,
          }),
        );
        for (const item of data.items) expect(Object.keys(item).sort()).toEqual([...HIP4_TRADER_KEYS].sort());
        const expected = await addresses(
          `SELECT address FROM hl_smart_traders WHERE snapshot_id = $1 AND market = 'hip4' AND coin = '0' ORDER BY pnl_pct DESC, address DESC`,
          [marketId],
        );
        expect(data.items.map((i: Data) => i.userAddress)).toEqual(expected);
      });

      it('falls back to the YES mark when the YES side has no mid', async () => {
        const data = await ok('/hl/hip4/smart-trader?outcomeId=1&sort=tradeCount', '2');
        expect(data).toEqual(expect.objectContaining({ outcomeId: '1', markPx: '0.1', total: HL_SEED.otherOutcome.traders }));
      });

      it.each([
        ['outcomeId=7', 'outcomeId', /^outcomeId: unknown outcome "7"/],
        ['outcomeId=-1', 'outcomeId', undefined],
        ['outcomeId=abc', 'outcomeId', undefined],
        ['', 'outcomeId', undefined],
        ['outcomeId=0&sort=netPositionSz', 'sort', undefined],
        ['outcomeId=0&limit=201', 'limit', undefined],
      ])('rejects ?%s naming %s', async (query, field, msg) => {
        await expectInvalid(`/hl/hip4/smart-trader?${query}`, field, msg);
      });
    });

    describe('after a snapshot refresh', () => {
      it('resumes a cursor minted on the previous snapshot at the same rank', async () => {
        const desc = await ok('/hl/perp/holders?coin=BTC&limit=100');
        const asc = await ok('/hl/perp/holders?coin=BTC&limit=100&order=asc');
        const refreshedAt = new Date('2026-11-21T12:01:00.000Z');
        const nextId = await publishHlMarketSnapshot(t, { shift: 5, btcHolders: 1200, snapshotTime: refreshedAt });
        expect(await currentSnapshotId('market')).toBe(nextId);

        const descNext = await ok(`/hl/perp/holders?coin=BTC&limit=100&cursor=${encodeURIComponent(desc.nextCursor)}`);
        expect(descNext.items.map((i: Data) => i.address)).toEqual(
          await addresses(
            `SELECT address FROM hl_perp_holders WHERE snapshot_id = $1 AND coin = 'BTC' AND rank_value BETWEEN 101 AND 200 ORDER BY rank_value`,
            [nextId],
          ),
        );
        expect(descNext).toEqual(expect.objectContaining({ total: 1200, page: 2, updatedAt: refreshedAt.toISOString() }));

        const ascNext = await ok(`/hl/perp/holders?coin=BTC&limit=100&order=asc&cursor=${encodeURIComponent(asc.nextCursor)}`);
        expect(ascNext.items.map((i: Data) => i.address)).toEqual(
          await addresses(
            `SELECT address FROM hl_perp_holders WHERE snapshot_id = $1 AND coin = 'BTC' AND rank_value BETWEEN 1001 AND 1100 ORDER BY rank_value DESC`,
            [nextId],
          ),
        );
        expect(ascNext).toEqual(expect.objectContaining({ total: 1200, page: 2, hasMore: true }));
      });
    });
  });
});
