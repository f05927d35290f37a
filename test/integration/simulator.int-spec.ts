import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { HyperliquidMarket } from '../../src/simulator/hyperliquid/hyperliquid-market';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator.server';
import { OUTCOME_TOKEN_BASE } from '../../src/simulator/hyperliquid/account-state';
import { SimWorld } from '../../src/simulator/world/sim-world';
import { hlFixture } from '../support/hl-fixtures';
import { shapeDiff } from '../support/json-shape';

const REPO = resolve(__dirname, '../..');
const WALLETS = 300;
const SEED = 7;
const STEP_MS = 2000;
const DAY_MS = 86_400_000;
/** A fixed instant inside a price step, so every simulator here sees the same market. */
const T0 = 1_767_225_600_000 + 500;
const DECIMAL = /^-?\d+\.\d+$/;

type Json = unknown;

function fixture(name: string): Json {
  return hlFixture(name);
}

/** The Hyperliquid recorders stringify integers (ccxt), so scalars match scalars here; only key sets count. */
function keyDiff(actual: Json, expected: Json, extra: string[] = []): string[] {
  return shapeDiff(actual, expected, { extra, scalarKinds: false });
}

async function info(sim: RunningSimulator, body: unknown): Promise<{ status: number; json: Json; text: string; headers: Headers }> {
  const res = await fetch(sim.infoUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, headers: res.headers };
}

async function ok(sim: RunningSimulator, body: unknown): Promise<any> {
  const res = await info(sim, body);
  expect(res.status).toBe(200);
  return res.json;
}

describe('Hyperliquid simulator', () => {
  let now = T0;
  let sut: RunningSimulator;
  let twin: RunningSimulator;
  const clock = () => now;

  beforeAll(async () => {
    sut = await startSimulator({ wallets: WALLETS, seed: SEED, weightPerMinute: 0, priceStepMs: STEP_MS, clock });
    twin = await startSimulator({ wallets: WALLETS, seed: SEED, weightPerMinute: 0, priceStepMs: STEP_MS, clock });
  });
  afterAll(async () => {
    await sut?.close();
    await twin?.close();
  });
  beforeEach(() => {
    now = T0;
  });

  /** The first wallet whose positions satisfy a predicate. */
  function findWallet(predicate: (coins: string[]) => boolean): string {
    for (let i = 0; i < WALLETS; i++) {
      if (predicate(sut.world.wallet(i).perps.map((slot) => slot.instrument.coin))) return sut.world.addresses[i];
    }
    throw new Error('no wallet matches');
  }

  describe('wire shapes match the recorded fixtures', () => {
    it.each([
      ['meta.json', { type: 'meta' }],
      ['metaAndAssetCtxs.json', { type: 'metaAndAssetCtxs' }],
      ['metaAndAssetCtxs.dex-xyz.json', { type: 'metaAndAssetCtxs', dex: 'xyz' }],
      ['spotMeta.json', { type: 'spotMeta' }],
      ['spotMetaAndAssetCtxs.json', { type: 'spotMetaAndAssetCtxs' }],
      ['perpDexs.json', { type: 'perpDexs' }],
      ['outcomeMeta.json', { type: 'outcomeMeta' }],
      ['clearinghouseState.empty.json', { type: 'clearinghouseState', user: '0xcd5051944f780a621ee62e39e493c489668acf4d' }],
    ])('%s', async (name, body) => {
      expect(keyDiff(await ok(sut, body), fixture(name))).toEqual([]);
    });

    it('allMids: decimal strings keyed by coin, sorted like the recording', async () => {
      const mids = await ok(sut, { type: 'allMids' });
      const recorded = fixture('allMids.json') as Record<string, string>;
      expect(Object.keys(mids)).toEqual([...Object.keys(mids)].sort());
      expect(Object.keys(recorded)).toEqual([...Object.keys(recorded)].sort());
      for (const value of Object.values(mids)) expect(value).toMatch(DECIMAL);
      expect(mids).toHaveProperty('PURR/USDC');
      expect(Object.keys(mids).some((coin) => /^@\d+$/.test(coin))).toBe(true);
    });

    it('clearinghouseState of a HIP-3 dex is the isolated-position shape of the recordings', async () => {
      const user = findWallet((coins) => coins.some((coin) => coin.startsWith('flx:')));
      const state = await ok(sut, { type: 'clearinghouseState', user, dex: 'flx' });
      expect(keyDiff(state, fixture('clearinghouseState.json'))).toEqual([]);
      expect(keyDiff(state, fixture('clearinghouseState.dex-flx.ccxt-stringified.json'))).toEqual([]);
      expect(typeof state.assetPositions[0].position.leverage.value).toBe('number');
      expect(typeof state.time).toBe('number');
    });

    it('clearinghouseState cross positions omit only leverage.rawUsd', async () => {
      const user = findWallet((coins) => coins.length > 0);
      const state = await ok(sut, { type: 'clearinghouseState', user });
      const cross = state.assetPositions.find((p: any) => p.position.leverage.type === 'cross');
      expect(keyDiff({ ...state, assetPositions: [cross] }, fixture('clearinghouseState.json'))).toEqual([
        '$.assetPositions[0].position.leverage.rawUsd: missing',
      ]);
    });

    it('spotClearinghouseState', async () => {
      const user = sut.world.addresses.find((address) => sut.world.walletOf(address)!.spot.length > 1)!;
      expect(keyDiff(await ok(sut, { type: 'spotClearinghouseState', user }), fixture('spotClearinghouseState.json'))).toEqual([]);
    });

    it('userFillsByTime: the recorded fill plus the modern tid, feeToken and builderFee', async () => {
      const user = findWallet((coins) => coins.length > 3);
      const fills = await ok(sut, { type: 'userFillsByTime', user, startTime: T0 - 7 * DAY_MS });
      expect(fills.length).toBeGreaterThan(0);
      const extra = ['$[0].tid', '$[0].feeToken', '$[0].builderFee'];
      for (const fill of fills) expect(keyDiff([fill], fixture('userFills.json'), extra)).toEqual([]);
      expect(fills[0].feeToken).toBe('USDC');
    });

    it('recentTrades elements are the trades of the websocket recording', async () => {
      const trades = await ok(sut, { type: 'recentTrades', coin: 'HYPE' });
      expect(keyDiff(trades, (fixture('wsTrades.json') as { data: unknown[] }).data)).toEqual([]);
    });

    it('leaderboard rows are the rows of the stats document', async () => {
      const doc: any = await (await fetch(`${sut.statsUrl}/leaderboard`)).json();
      expect(keyDiff(doc, fixture('leaderboard.excerpt.json'))).toEqual([]);
      expect(doc.leaderboardRows[0].windowPerformances.map((w: [string]) => w[0])).toEqual(['day', 'week', 'month', 'allTime']);
    });

    it('vaults list summaries with address, leader and tvl', async () => {
      const vaults: any = await (await fetch(`${sut.statsUrl}/vaults`)).json();
      expect(vaults).toHaveLength(sut.world.vaultAddresses.length);
      expect(Object.keys(vaults[0]).sort()).toEqual(['apr', 'pnls', 'summary']);
      expect(Object.keys(vaults[0].summary).sort()).toEqual(['createTimeMillis', 'isClosed', 'leader', 'name', 'relationship', 'tvl', 'vaultAddress']);
      expect(vaults[0].summary.relationship).toEqual({ type: 'normal' });
    });

    it('never writes a number in exponent notation', async () => {
      const user = findWallet((coins) => coins.length > 5);
      const bodies = await Promise.all([
        info(sut, { type: 'metaAndAssetCtxs' }),
        info(sut, { type: 'spotMetaAndAssetCtxs' }),
        info(sut, { type: 'clearinghouseState', user }),
        info(sut, { type: 'recentTrades', coin: 'kPEPE' }),
        info(sut, { type: 'userFillsByTime', user, startTime: T0 - DAY_MS }),
      ]);
      for (const { status, text } of bodies) {
        expect(status).toBe(200);
        expect(text).not.toMatch(/[:[,]-?\d+(\.\d+)?[eE][+-]?\d+/);
        expect(text).not.toMatch(/"-?\d+(\.\d+)?[eE][+-]?\d+"/);
      }
    });
  });

  describe('market behaviour', () => {
    it('is deterministic: the same seed gives the same state at the same instant', async () => {
      for (const address of sut.world.addresses.slice(0, 5)) {
        const body = { type: 'clearinghouseState', user: address };
        expect((await info(sut, body)).text).toBe((await info(twin, body)).text);
      }
      expect(sut.world.addresses).toEqual(twin.world.addresses);
      expect(new SimWorld({ wallets: 10, seed: SEED + 1 }).addresses[0]).not.toBe(sut.world.addresses[0]);
      for (const address of sut.world.addresses) expect(address).toMatch(/^0x[0-9a-f]{40}$/);
    });

    it('moves prices between polls one step apart, and marks positions to the new price', async () => {
      const user = findWallet((coins) => coins.includes('BTC'));
      const before = await ok(sut, { type: 'allMids' });
      const stateBefore = await ok(sut, { type: 'clearinghouseState', user });
      now = T0 + STEP_MS;
      const after = await ok(sut, { type: 'allMids' });
      const stateAfter = await ok(sut, { type: 'clearinghouseState', user });
      const changed = Object.keys(before).filter((coin) => before[coin] !== after[coin]);
      expect(changed.length).toBeGreaterThan(Object.keys(before).length / 2);
      expect(before.BTC).not.toBe(after.BTC);
      const btc = (state: any) => state.assetPositions.find((p: any) => p.position.coin === 'BTC').position;
      expect(btc(stateAfter).unrealizedPnl).not.toBe(btc(stateBefore).unrealizedPnl);
      const p = btc(stateAfter);
      expect(Number(p.positionValue)).toBeCloseTo(Math.abs(Number(p.szi)) * Number(after.BTC), 4);
      expect(Number(p.unrealizedPnl)).toBeCloseTo(Number(p.szi) * (Number(after.BTC) - Number(p.entryPx)), 4);
    });

    it('reports prevDayPx as the price 24 hours earlier', async () => {
      const [, ctxs] = await ok(sut, { type: 'metaAndAssetCtxs' });
      now = T0 - DAY_MS;
      const dayAgo = await ok(sut, { type: 'allMids' });
      expect(ctxs[0].prevDayPx).toBe(dayAgo.BTC);
    });

    it('keeps each dex separate: native, xyz and flx states hold only their own coins', async () => {
      const user = findWallet((coins) => coins.some((c) => !c.includes(':')) && coins.some((c) => c.startsWith('xyz:')));
      const coinsOf = async (dex?: string) =>
        (await ok(sut, { type: 'clearinghouseState', user, ...(dex ? { dex } : {}) })).assetPositions.map((p: any) => p.position.coin as string);
      const native = await coinsOf();
      const xyz = await coinsOf('xyz');
      expect(native.length).toBeGreaterThan(0);
      expect(native.every((coin: string) => !coin.includes(':'))).toBe(true);
      expect(xyz.length).toBeGreaterThan(0);
      expect(xyz.every((coin: string) => coin.startsWith('xyz:'))).toBe(true);
      expect((await coinsOf('flx')).every((coin: string) => coin.startsWith('flx:'))).toBe(true);
      const mids = await ok(sut, { type: 'allMids', dex: 'xyz' });
      expect(Object.keys(mids).every((coin) => coin.startsWith('xyz:'))).toBe(true);
      const dexes = await ok(sut, { type: 'perpDexs' });
      expect(dexes[0]).toBeNull();
      expect(dexes.slice(1).map((d: { name: string }) => d.name)).toEqual(['xyz', 'flx']);
    });

    it('adds up margin summaries from the positions', async () => {
      const user = findWallet((coins) => coins.length > 4);
      const state = await ok(sut, { type: 'clearinghouseState', user });
      const sum = (f: (p: any) => number) => state.assetPositions.reduce((s: number, { position }: any) => s + f(position), 0);
      expect(Number(state.marginSummary.totalNtlPos)).toBeCloseTo(
        sum((p) => Number(p.positionValue)),
        3,
      );
      const isolatedMargin = sum((p) => (p.leverage.type === 'isolated' ? Number(p.marginUsed) : 0));
      expect(Number(state.marginSummary.accountValue)).toBeCloseTo(Number(state.crossMarginSummary.accountValue) + isolatedMargin, 3);
    });

    it('fills trades to known wallets, oldest first, at most 50', async () => {
      const known = new Set(sut.world.addresses);
      for (const coin of ['BTC', 'xyz:TSLA', 'PURR/USDC', '#0']) {
        const trades = await ok(sut, { type: 'recentTrades', coin });
        expect(trades.length).toBe(50);
        const times = trades.map((t: { time: number }) => t.time);
        expect(times).toEqual([...times].sort((a, b) => a - b));
        expect(Math.max(...times)).toBeLessThanOrEqual(now);
        for (const trade of trades) {
          expect(trade.coin).toBe(coin);
          expect(known.has(trade.users[0]) && known.has(trade.users[1])).toBe(true);
          expect(trade.users[0]).not.toBe(trade.users[1]);
        }
        expect(new Set(trades.map((t: { tid: number }) => t.tid)).size).toBe(50);
      }
      expect(await ok(sut, { type: 'recentTrades', coin: 'NOPE' })).toEqual([]);
    });

    it('returns only the fills inside the window, oldest first', async () => {
      const user = findWallet((coins) => coins.length > 5);
      const week = await ok(sut, { type: 'userFillsByTime', user, startTime: T0 - 7 * DAY_MS });
      const from = T0 - 3 * DAY_MS;
      const to = T0 - DAY_MS;
      const window = await ok(sut, { type: 'userFillsByTime', user, startTime: from, endTime: to });
      expect(window.length).toBeGreaterThan(0);
      expect(window.length).toBeLessThan(week.length);
      for (const fill of window) expect(fill.time >= from && fill.time <= to).toBe(true);
      const times = week.map((f: { time: number }) => f.time);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(window).toEqual(week.filter((f: { time: number }) => f.time >= from && f.time <= to));
      expect(await ok(sut, { type: 'userFillsByTime', user, startTime: T0 + DAY_MS })).toEqual([]);
    });

    it('keeps fills consistent with the position they lead to', async () => {
      const user = findWallet((coins) => coins.length > 3);
      const fills = await ok(sut, { type: 'userFillsByTime', user, startTime: T0 - 14 * DAY_MS });
      const state = await ok(sut, { type: 'clearinghouseState', user });
      for (const { position } of state.assetPositions) {
        const own = fills.filter((f: { coin: string }) => f.coin === position.coin);
        if (own.length === 0) continue;
        let szi = Number(own[0].startPosition);
        for (const fill of own) {
          expect(Number(fill.startPosition)).toBeCloseTo(szi, 6);
          szi += (fill.side === 'B' ? 1 : -1) * Number(fill.sz);
        }
        expect(szi).toBeCloseTo(Number(position.szi), 6);
        expect(own[own.length - 1].px).toBe(position.entryPx);
      }
    });

    it('has fills on HIP-3 and HIP-4 coins for the smart-trader aggregates', async () => {
      const coins = new Set<string>();
      const dirs = new Set<string>();
      for (const address of sut.world.addresses.slice(0, 60)) {
        for (const fill of await ok(sut, { type: 'userFillsByTime', user: address, startTime: T0 - 3 * DAY_MS })) {
          coins.add(fill.coin);
          dirs.add(fill.dir);
        }
      }
      expect([...coins].some((coin) => coin.startsWith('xyz:'))).toBe(true);
      expect([...coins].some((coin) => coin.startsWith('flx:'))).toBe(true);
      expect([...coins].some((coin) => coin.startsWith('#'))).toBe(true);
      expect([...dirs].sort()).toEqual(['Buy', 'Close Long', 'Close Short', 'Long > Short', 'Open Long', 'Open Short', 'Sell', 'Short > Long']);
    });

    it('lists HIP-4 outcomes from id 0 with Yes/No sides, # mids in (0,1) and + balances', async () => {
      const meta = await ok(sut, { type: 'outcomeMeta' });
      expect(meta.outcomes.map((o: { outcome: number }) => o.outcome)).toEqual([0, 1, 2]);
      for (const outcome of meta.outcomes) expect(outcome.sideSpecs).toEqual([{ name: 'Yes' }, { name: 'No' }]);
      const mids = await ok(sut, { type: 'allMids' });
      for (const { outcome } of meta.outcomes) {
        const yes = Number(mids[`#${outcome * 10}`]);
        const no = Number(mids[`#${outcome * 10 + 1}`]);
        expect(yes > 0 && yes < 1 && no > 0 && no < 1).toBe(true);
        expect(yes + no).toBeCloseTo(1, 9);
      }
      const holder = sut.world.addresses.find((address) => sut.world.walletOf(address)!.outcome !== null)!;
      const { balances } = await ok(sut, { type: 'spotClearinghouseState', user: holder });
      const outcomeBalance = balances.find((b: { coin: string }) => b.coin.startsWith('+'));
      expect(outcomeBalance.coin).toMatch(/^\+\d+$/);
      expect(outcomeBalance.token).toBe(OUTCOME_TOKEN_BASE + Number(outcomeBalance.coin.slice(1)));
    });

    it('publishes every account with value > 0 on the leaderboard, vaults included', async () => {
      const doc: any = await (await fetch(`${sut.statsUrl}/leaderboard`)).json();
      const rows = doc.leaderboardRows as Array<{ ethAddress: string; accountValue: string }>;
      expect(rows.length).toBeGreaterThan(WALLETS * 0.8);
      expect(rows.length).toBeLessThanOrEqual(WALLETS + sut.world.vaultAddresses.length);
      const listed = new Map(rows.map((row) => [row.ethAddress, row]));
      for (const vault of sut.world.vaultAddresses) expect(listed.has(vault)).toBe(true);
      for (const row of rows) expect(Number(row.accountValue)).toBeGreaterThan(0);
      // Valued at the start of the refresh period, across every dex.
      now = Math.floor(T0 / 60_000) * 60_000;
      const row = rows[3];
      let total = 0;
      for (const dex of [undefined, 'xyz', 'flx']) {
        total += Number((await ok(sut, { type: 'clearinghouseState', user: row.ethAddress, ...(dex ? { dex } : {}) })).marginSummary.accountValue);
      }
      expect(Number(row.accountValue)).toBeCloseTo(total, 3);
    });
  });

  describe('protocol', () => {
    it('refuses an unknown type with 422 and the upstream text', async () => {
      const res = await info(sut, { type: 'noSuchType' });
      expect(res.status).toBe(422);
      expect(res.text).toMatch(/^Failed to deserialize the JSON body into the target type/);
    });

    it('refuses malformed JSON with 400, a missing user with 422 and an unknown dex with 500 null', async () => {
      expect((await info(sut, '{"type":')).status).toBe(400);
      const missing = await info(sut, { type: 'clearinghouseState' });
      expect(missing.status).toBe(422);
      expect(missing.text).toContain('missing field `user`');
      const dex = await info(sut, { type: 'meta', dex: 'nope' });
      expect([dex.status, dex.text]).toEqual([500, 'null']);
      expect((await fetch(`${sut.url}/nothing`)).status).toBe(404);
    });

    it('routes by whole path segments: /infos and /info/x are not the info endpoint', async () => {
      const allMids = JSON.stringify({ type: 'allMids' });
      expect((await fetch(`${sut.url}/infos`, { method: 'POST', body: allMids })).status).toBe(404);
      expect((await fetch(`${sut.url}/info/x`, { method: 'POST', body: allMids })).status).toBe(404);
      expect((await fetch(`${sut.url}/Mainnet/nothing`)).status).toBe(404);
      expect((await fetch(`${sut.statsUrl}/vaults`)).status).toBe(200);
    });

    it('answers 429 with Retry-After once the weight budget is spent, and counts weight', async () => {
      // A pinned clock keeps all 21 calls in one window.
      const limited = await startSimulator({ wallets: 50, seed: SEED, weightPerMinute: 40, clock: () => T0 });
      try {
        for (let i = 0; i < 20; i++) expect((await info(limited, { type: 'allMids' })).status).toBe(200);
        const refused = await info(limited, { type: 'allMids' });
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBe('60');
        expect(limited.protocols.hyperliquid.counters.weightSpent).toBe(40);
        expect(limited.protocols.hyperliquid.counters.rateLimited).toBe(1);
        expect(limited.protocols.hyperliquid.counters.requestsByType.allMids).toBe(21);
      } finally {
        await limited.close();
      }
    });

    it('charges recentTrades 20 plus 1 per 20 trades', async () => {
      sut.protocols.hyperliquid.resetCounters();
      await ok(sut, { type: 'recentTrades', coin: 'BTC' });
      expect(sut.protocols.hyperliquid.counters.weightSpent).toBe(20 + Math.floor(50 / 20));
    });
  });
});

describe('Simulator market size', () => {
  it('holds about 10 positions per wallet, so 100,000 wallets hold about 1,000,000', () => {
    const sut = new SimWorld({ wallets: 2000, seed: 1 });
    const perWallet = sut.positionCount / sut.addresses.length;
    expect(perWallet).toBeGreaterThan(9.3);
    expect(perWallet).toBeLessThan(10.7);
    const hip3Holders = sut.addresses.filter((address) => sut.walletOf(address)!.perps.some((slot) => slot.instrument.dexIndex > 0)).length;
    expect(hip3Holders / sut.addresses.length).toBeGreaterThan(0.15);
  });

  it('reports open interest as one side: half the summed position sizes of the wallets', () => {
    const world = new SimWorld({ wallets: 400, seed: 2 });
    const sut = new HyperliquidMarket(world);
    let btc = 0;
    for (let i = 0; i < world.addresses.length; i++) for (const slot of world.wallet(i).perps) if (slot.instrument.coin === 'BTC') btc += slot.size;
    const [, ctxs] = sut.metaAndAssetCtxs(T0) as [unknown, Array<{ openInterest: string }>];
    expect(Number(ctxs[0].openInterest)).toBeCloseTo(btc / 2, 4);
  });
});

describe('npm run simulator', () => {
  it('prints its URLs and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/simulator/main.ts', '--port', '0', '--wallets', '200'], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const line = await new Promise<string>((resolveLine, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolveLine);
        child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      expect(line).toMatch(
        /^simulator listening on http:\/\/127\.0\.0\.1:\d+ \(info: \/info, stats: \/Mainnet; coingecko: \/coingecko\/api\/v3; binance: \/binance\/api\/v3; yahoo: \/yahoo, cookie: \/yahoo\/cookie; sec: \/sec\/submissions, \/sec\/files; news: \/feeds \([^)]*\)\) wallets=200 /,
      );
      const url = /http:\/\/[^ ]+/.exec(line)![0];
      const res = await fetch(`${url}/info`, { method: 'POST', body: JSON.stringify({ type: 'allMids' }) });
      expect(res.status).toBe(200);
      const exited = new Promise<number | null>((resolveExit) => child.once('exit', resolveExit));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
