import { Global, Injectable, Inject, Logger, Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { compressFrameSync } from 'lz4-napi';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { AppConfig } from '../../config/app.config';
import { KV_STORE } from '../../infra/kv/kv-store';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { UpstreamError } from '../kit/upstream.error';
import { BUILDER_FILLS_SOURCE, BuilderFillsSource } from './builder-fills-source';
import { HyperliquidBuilderFillsClient } from './hyperliquid-builder-fills.client';
import { HyperliquidModule } from './hyperliquid.module';

const BUILDER = '0x1924B8561EEF20E70EDE628A296175D358BE80E5';
const BUILDER_LOWER = BUILDER.toLowerCase();
const USER = '0x53bbf2c0b745fd5cada06ddb4a3fb5e955f6efb3';
const HEADER = 'time,user,coin,side,px,sz,crossed,special_trade_type,tif,is_trigger,counterparty,closed_pnl,twap_id,builder_fee';
const ROW = `2026-09-18T00:03:40Z,${USER},ZEC,Ask,1469.6,0.11,true,Na,Ioc,false,${USER},0,0,0.080828`;

type Reply = { status?: number; body: Buffer | string; headers?: Record<string, string> };

describe(HyperliquidBuilderFillsClient.name, () => {
  let server: Server;
  let baseUrl: string;
  let requests: { method: string; url: string }[];
  let replies: Reply[];
  let sut: HyperliquidBuilderFillsClient;
  let warn: jest.SpyInstance;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push({ method: req.method ?? '', url: req.url ?? '' });
      const reply = replies.shift() ?? { status: 403, body: '<Error><Code>AccessDenied</Code></Error>', headers: { 'content-type': 'application/xml' } };
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/octet-stream', ...reply.headers });
      res.end(reply.body);
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
    replies = [];
    sut = makeClient({ maxRetries: 0 });
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => {
    sut.onModuleDestroy();
    warn.mockRestore();
  });

  function makeClient({ maxRetries }: { maxRetries: number }): HyperliquidBuilderFillsClient {
    const hyperliquid: AppConfig['hyperliquid'] = {
      infoUrl: `${baseUrl}/info`,
      statsUrl: `${baseUrl}/Mainnet`,
      weightPerMinute: 1200,
      historyWeightShare: 25,
      timeoutMs: 5_000,
      maxRetries,
    };
    const config = { get: (key: string) => (key === 'hyperliquid' ? hyperliquid : undefined) } as unknown as ConfigService<AppConfig, true>;
    return new HyperliquidBuilderFillsClient(config);
  }

  it('gets the day file of the lower-cased builder from the stats host and parses it', async () => {
    replies = [{ body: compressFrameSync(`${HEADER}\n${ROW}\n`) }];
    const day = await sut.dailyFills({ builder: BUILDER, day: '2026-09-18' });
    expect(requests).toEqual([{ method: 'GET', url: `/Mainnet/builder_fills/${BUILDER_LOWER}/20260918.csv.lz4` }]);
    expect(day).toEqual({
      status: 'published',
      builder: BUILDER_LOWER,
      day: '2026-09-18',
      fills: [expect.objectContaining({ builder: BUILDER_LOWER, user: USER, counterparty: USER, side: 'A', builderFee: '0.080828', twapId: null })],
    });
  });

  it('answers a day that is not published (403) as such, not as an error, and does not warn', async () => {
    const day = await sut.dailyFills({ builder: BUILDER, day: '2026-09-19' });
    expect(day).toEqual({ status: 'not-published', builder: BUILDER_LOWER, day: '2026-09-19' });
    expect(requests).toHaveLength(1);
    expect(warn).not.toHaveBeenCalled();
  });

  it('answers a 404 as not published too', async () => {
    replies = [{ status: 404, body: 'Not Found' }];
    await expect(sut.dailyFills({ builder: BUILDER, day: '2026-09-19' })).resolves.toMatchObject({ status: 'not-published' });
  });

  it('throws a shape error naming the file for a body that is not LZ4', async () => {
    replies = [{ body: `${HEADER}\n${ROW}\n`, headers: { 'content-type': 'text/csv' } }];
    const error = await sut.dailyFills({ builder: BUILDER, day: '2026-09-18' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'shape', provider: 'hyperliquid' });
    expect((error as Error).message).toBe(`hyperliquid: builder_fills/${BUILDER_LOWER}/20260918.csv: not an LZ4 frame (wrong magic number)`);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('builder_fills failed (shape)'));
  });

  it('throws a shape error naming the row of a malformed file', async () => {
    replies = [{ body: compressFrameSync(`${HEADER}\n${ROW}\n${ROW.replace(',Ask,', ',Short,')}\n`) }];
    await expect(sut.dailyFills({ builder: BUILDER, day: '2026-09-18' })).rejects.toMatchObject({
      kind: 'shape',
      message: expect.stringContaining(`builder_fills/${BUILDER_LOWER}/20260918.csv row 2 (line 3), column side: expected Bid or Ask`),
    });
  });

  it('retries a server error and then reads the file', async () => {
    sut = makeClient({ maxRetries: 1 });
    const debug = jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
    replies = [{ status: 503, body: '', headers: { 'retry-after': '0' } }, { body: compressFrameSync(`${HEADER}\n`) }];
    await expect(sut.dailyFills({ builder: BUILDER, day: '2026-09-18' })).resolves.toMatchObject({ status: 'published', fills: [] });
    expect(requests).toHaveLength(2);
    debug.mockRestore();
  });

  it('reports another refusal (401) as kind http', async () => {
    replies = [{ status: 401, body: '' }];
    await expect(sut.dailyFills({ builder: BUILDER, day: '2026-09-18' })).rejects.toMatchObject({ kind: 'http', upstreamStatus: 401 });
  });

  it('refuses a builder that is not an address and a day that does not exist, asking nothing', async () => {
    await expect(sut.dailyFills({ builder: '0x1234', day: '2026-09-18' })).rejects.toThrow(RangeError);
    await expect(sut.dailyFills({ builder: BUILDER, day: '20260918' })).rejects.toThrow('day must be a UTC day, YYYY-MM-DD');
    await expect(sut.dailyFills({ builder: BUILDER, day: '2026-02-30' })).rejects.toThrow(RangeError);
    expect(requests).toEqual([]);
  });
});

describe(`${HyperliquidModule.name} builder fills`, () => {
  it('lets a service inject the builder fills client by BUILDER_FILLS_SOURCE', async () => {
    @Global()
    @Module({ providers: [{ provide: KV_STORE, useValue: new MemoryKvStore() }], exports: [KV_STORE] })
    class FakeKvModule {}
    @Injectable()
    class BuilderRewardsService {
      constructor(@Inject(BUILDER_FILLS_SOURCE) readonly source: BuilderFillsSource) {}
    }
    @Module({ imports: [HyperliquidModule], providers: [BuilderRewardsService] })
    class RewardsModule {}
    const hyperliquid = {
      infoUrl: 'http://127.0.0.1:9/info',
      statsUrl: 'http://127.0.0.1:9/Mainnet',
      weightPerMinute: 1200,
      historyWeightShare: 25,
      timeoutMs: 1_000,
      maxRetries: 0,
    };
    const moduleRef = await Test.createTestingModule({
      imports: [ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => ({ hyperliquid })] }), FakeKvModule, RewardsModule],
    }).compile();
    const { source } = moduleRef.get(BuilderRewardsService);
    expect(source).toBeInstanceOf(HyperliquidBuilderFillsClient);
    expect(source.name).toBe('hyperliquid');
    await moduleRef.close();
  });
});
