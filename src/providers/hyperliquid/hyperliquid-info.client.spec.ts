import { Global, Logger, Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { AppConfig } from '../../config/app.config';
import { KV_STORE } from '../../infra/kv/kv-store';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { UpstreamError } from '../kit/upstream.error';
import { HyperliquidInfoClient } from './hyperliquid-info.client';
import { HyperliquidModule } from './hyperliquid.module';
import { SPEND_WEIGHT_SCRIPT } from '../kit/request-budget';
import { hlFixtureText } from '../../../test/support/hl-fixtures';

const fixtureText = hlFixtureText;
const USER = '0x5e9ee1089755c3435139848e47e6635505d5a13a';

type Reply = { status?: number; body: string; headers?: Record<string, string> };

/** Answers /info by request type and the stats documents by path, from the recorded fixtures. */
function defaultReply(method: string, url: string, body: Record<string, unknown>): Reply {
  if (method === 'GET' && url === '/Mainnet/leaderboard') return { body: fixtureText('leaderboard.excerpt.json') };
  if (method === 'GET' && url === '/Mainnet/vaults') {
    return {
      body: JSON.stringify([
        {
          apr: 0.1,
          pnls: [],
          summary: {
            name: 'HLP',
            vaultAddress: '0xdfc24b077bc1425ad1dea75bcb6f8158e10df303',
            leader: '0x677d831aef5328190852e24f13c46cac05f984e7',
            tvl: '1.0',
            isClosed: false,
          },
        },
      ]),
    };
  }
  const byType: Record<string, string> = {
    allMids: 'allMids.json',
    meta: 'meta.json',
    metaAndAssetCtxs: body.dex === 'xyz' ? 'metaAndAssetCtxs.dex-xyz.json' : 'metaAndAssetCtxs.json',
    spotMeta: 'spotMeta.json',
    spotMetaAndAssetCtxs: 'spotMetaAndAssetCtxs.json',
    perpDexs: 'perpDexs.json',
    clearinghouseState: body.dex === 'flx' ? 'clearinghouseState.dex-flx.ccxt-stringified.json' : 'clearinghouseState.legacy-2023.json',
    spotClearinghouseState: 'spotClearinghouseState.json',
    userFillsByTime: 'userFills.json',
    userFills: 'userFills.builderFee.ccxt-stringified.json',
    outcomeMeta: 'outcomeMeta.json',
  };
  if (body.type === 'recentTrades') return { body: JSON.stringify(JSON.parse(fixtureText('wsTrades.json')).data) };
  const file = typeof body.type === 'string' ? byType[body.type] : undefined;
  return file ? { body: fixtureText(file) } : { status: 422, body: 'Failed to deserialize the JSON body into the target type' };
}

describe(HyperliquidInfoClient.name, () => {
  let server: Server;
  let baseUrl: string;
  let requests: { method: string; url: string; body: Record<string, unknown> }[];
  let override: Reply | undefined;
  /** Replies given once each, before `override` and the fixtures. */
  let queued: Reply[];
  let kv: MemoryKvStore;
  let sut: HyperliquidInfoClient;
  let warn: jest.SpyInstance;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
        requests.push({ method: req.method ?? '', url: req.url ?? '', body });
        const reply = queued.shift() ?? override ?? defaultReply(req.method ?? '', req.url ?? '', body);
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body);
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  });

  beforeEach(() => {
    requests = [];
    override = undefined;
    queued = [];
    kv = new MemoryKvStore();
    sut = makeClient({ maxRetries: 0 });
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => warn.mockRestore());

  function makeClient({ maxRetries }: { maxRetries: number }): HyperliquidInfoClient {
    const hyperliquid: AppConfig['hyperliquid'] = {
      infoUrl: `${baseUrl}/info`,
      statsUrl: `${baseUrl}/Mainnet`,
      weightPerMinute: 1200,
      historyWeightShare: 25,
      timeoutMs: 5_000,
      maxRetries,
    };
    const config = { get: (key: string) => (key === 'hyperliquid' ? hyperliquid : undefined) } as unknown as ConfigService<AppConfig, true>;
    return new HyperliquidInfoClient(config, kv);
  }

  /** Weight recorded in the shared pool (this window and the previous one, in case a minute turned mid-test). */
  async function spentWeight(windowKey = (at: number) => sut.budget.windowKey(at)): Promise<number> {
    const now = Date.now();
    const keys = [windowKey(now), windowKey(now - 60_000)];
    const values = await Promise.all(keys.map((key) => kv.get(key)));
    return values.reduce((sum, value) => sum + Number(value ?? 0), 0);
  }

  it('posts allMids without a dex for the native dex and spends weight 2', async () => {
    const mids = await sut.allMids();
    expect(requests).toEqual([{ method: 'POST', url: '/info', body: { type: 'allMids' } }]);
    expect(Object.keys(mids)).toHaveLength(482);
    expect(await spentWeight()).toBe(2);
  });

  it('sends dex for a HIP-3 dex', async () => {
    await sut.allMids('xyz');
    const { ctxs } = await sut.metaAndAssetCtxs('xyz');
    expect(requests.map((r) => r.body)).toEqual([
      { type: 'allMids', dex: 'xyz' },
      { type: 'metaAndAssetCtxs', dex: 'xyz' },
    ]);
    expect(ctxs[1].coin).toBe('xyz:TSLA');
    expect(await spentWeight()).toBe(22);
  });

  it('spends weight 20 for meta', async () => {
    const spend = jest.spyOn(sut.budget, 'spend');
    const meta = await sut.meta();
    expect(requests[0].body).toEqual({ type: 'meta' });
    expect(meta.universe).toHaveLength(223);
    expect(spend).toHaveBeenCalledWith(20, { signal: expect.any(AbortSignal), history: false });
    expect(await spentWeight()).toBe(20);
  });

  it('asks one clearinghouseState per user and dex', async () => {
    const native = await sut.clearinghouseState(USER);
    const flx = await sut.clearinghouseState(USER, 'flx');
    expect(requests.map((r) => r.body)).toEqual([
      { type: 'clearinghouseState', user: USER },
      { type: 'clearinghouseState', user: USER, dex: 'flx' },
    ]);
    expect(native.assetPositions).toHaveLength(12);
    expect(flx.assetPositions[0].leverage.value).toBe(3);
    expect(await spentWeight()).toBe(4);
  });

  it('reads spot balances, spot markets, dexes and outcomes', async () => {
    expect((await sut.spotClearinghouseState(USER)).balances).toHaveLength(2);
    expect((await sut.spotMeta()).tokens).toHaveLength(342);
    expect((await sut.spotMetaAndAssetCtxs()).ctxs).toHaveLength(233);
    expect((await sut.perpDexs()).map((d) => d.name)).toEqual(['xyz', 'flx', 'vntl', 'hyna']);
    expect((await sut.outcomeMeta()).outcomes[0].sides).toEqual(['Yes', 'No']);
    expect(requests.map((r) => r.body)).toEqual([
      { type: 'spotClearinghouseState', user: USER },
      { type: 'spotMeta' },
      { type: 'spotMetaAndAssetCtxs' },
      { type: 'perpDexs' },
      { type: 'outcomeMeta' },
    ]);
    expect(await spentWeight()).toBe(2 + 20 * 4);
  });

  it('charges the per-20-fills surcharge after the fills arrive', async () => {
    const charge = jest.spyOn(sut.budget, 'charge');
    const fills = await sut.userFillsByTime(USER, 1_683_000_000_000, 1_684_000_000_000);
    expect(requests[0].body).toEqual({ type: 'userFillsByTime', user: USER, startTime: 1_683_000_000_000, endTime: 1_684_000_000_000 });
    expect(fills).toHaveLength(500);
    expect(charge).toHaveBeenCalledWith(25, { history: true });
    expect(await spentWeight()).toBe(20 + 25);
  });

  it('spends trades and fills, surcharge included, from the history share, and account reads only from the whole budget', async () => {
    await sut.clearinghouseState(USER);
    await sut.recentTrades('HYPE');
    await sut.userFillsByTime(USER, 1_683_000_000_000, 1_684_000_000_000);

    expect(await spentWeight()).toBe(2 + 20 + 20 + 25);
    expect(await spentWeight((at) => sut.budget.historyWindowKey(at))).toBe(20 + 20 + 25);
  });

  it('makes a history read wait once its share (25% of 1,200) is spent, while account reads go on', async () => {
    // This window and the next, so a minute turning mid-test changes nothing.
    for (const at of [Date.now(), Date.now() + 60_000]) {
      await kv.run(SPEND_WEIGHT_SCRIPT, [sut.budget.windowKey(at), sut.budget.historyWindowKey(at)], [290, 1200, 120_000, '1', 300]);
    }

    const trades = sut.recentTrades('HYPE');
    await sut.clearinghouseState(USER);
    sut.onModuleDestroy();

    await expect(trades).rejects.toMatchObject({ kind: 'aborted' });
    expect(requests.map((r) => r.body.type)).toEqual(['clearinghouseState']);
  });

  it('reads the latest fills with their builder fees as a history read', async () => {
    const charge = jest.spyOn(sut.budget, 'charge');
    const fills = await sut.userFills(USER);
    expect(requests[0].body).toEqual({ type: 'userFills', user: USER });
    expect(fills.map((f) => f.builderFee)).toEqual(['0.002424', null, null, null, '0.002558']);
    expect(charge).not.toHaveBeenCalled();
    expect(await spentWeight((at) => sut.budget.historyWindowKey(at))).toBe(20);
  });

  it('omits endTime when not given', async () => {
    await sut.userFillsByTime(USER, 5);
    expect(requests[0].body).toEqual({ type: 'userFillsByTime', user: USER, startTime: 5 });
  });

  it('reads recent trades with their users', async () => {
    const trades = await sut.recentTrades('HYPE');
    expect(requests[0].body).toEqual({ type: 'recentTrades', coin: 'HYPE' });
    expect(trades[0].users).toEqual(['0x8cdba352268065be9d5444e1f82b8fe83717bbd5', '0x13558be785661958932ceac35ba20de187275a42']);
    expect(await spentWeight()).toBe(20);
  });

  it('gets the leaderboard and the vaults from the stats host without spending weight', async () => {
    const rows = await sut.leaderboard();
    const vaults = await sut.vaultAddresses();
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /Mainnet/leaderboard', 'GET /Mainnet/vaults']);
    expect(rows[0].ethAddress).toBe('0x162cc7c861ebd0c06b3d72319201150482518185');
    expect(vaults).toEqual(['0xdfc24b077bc1425ad1dea75bcb6f8158e10df303']);
    expect(await spentWeight()).toBe(0);
  });

  it('logs and throws a shape error for an unexpected body', async () => {
    override = { body: JSON.stringify({ assetPositions: [], withdrawable: 1 }) };
    const error = await sut.clearinghouseState(USER).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'shape', provider: 'hyperliquid' });
    expect((error as Error).message).toContain('clearinghouseState.marginSummary: expected object');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('clearinghouseState failed (shape)'));
  });

  it('spends the weight again for every retry, from the shared pool', async () => {
    sut = makeClient({ maxRetries: 3 });
    const debug = jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
    const busy: Reply = { status: 429, body: 'null', headers: { 'retry-after': '0' } };
    queued = [busy, busy];

    await sut.meta();

    expect(requests).toHaveLength(3);
    expect(await spentWeight()).toBe(3 * 20);
    debug.mockRestore();
  });

  it('reports a rejected request as kind http without retrying', async () => {
    override = { status: 422, body: 'Failed to deserialize' };
    await expect(sut.meta()).rejects.toMatchObject({ kind: 'http', upstreamStatus: 422 });
    expect(requests).toHaveLength(1);
  });
});

describe(HyperliquidModule.name, () => {
  it('provides the client from the global config and KV store', async () => {
    @Global()
    @Module({ providers: [{ provide: KV_STORE, useValue: new MemoryKvStore() }], exports: [KV_STORE] })
    class FakeKvModule {}
    const hyperliquid = {
      infoUrl: 'http://127.0.0.1:9/info',
      statsUrl: 'http://127.0.0.1:9/Mainnet',
      weightPerMinute: 1200,
      historyWeightShare: 25,
      timeoutMs: 1_000,
      maxRetries: 0,
    };
    const moduleRef = await Test.createTestingModule({
      imports: [ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => ({ hyperliquid })] }), FakeKvModule, HyperliquidModule],
    }).compile();
    expect(moduleRef.get(HyperliquidInfoClient).budget.unlimited).toBe(false);
    await moduleRef.close();
  });
});
