import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMBEDDED_LOCK_FILE } from '../../src/infra/database/embedded-lock';
import { freePort, embeddedEnv, spawnDemo, stopChild } from '../support/child-process';

const ROOT = join(__dirname, '..', '..');
/** What a newcomer is promised: full /hl lists this long after `npm run demo` starts. */
const ALIVE_WITHIN_MS = 90_000;
const POLL_MS = 2_000;

function runCli(dataDir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/cli/main.ts', ...args], { cwd: ROOT, env: embeddedEnv(dataDir) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

interface Alive {
  /** Markets routes answering with data from the simulator's vendor protocols. */
  marketsFilled: string[];
  trendingWithTraders: number;
  trendingMoved: number;
  hip3Traders: number;
  hip4Traders: number;
  btcHolders: number;
}

describe('npm run demo, started fresh', () => {
  let dataDir: string;
  let demo: { child: ChildProcess; key: string; base: string; traderKey?: string };
  let startedAt: number;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'demo-alive-'));
    startedAt = Date.now();
    demo = await spawnDemo(dataDir, await freePort());
  }, 70_000);

  afterAll(async () => {
    if (demo) await stopChild(demo.child);
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function data(path: string): Promise<any> {
    const res = await fetch(`${demo.base}/api/public/v1${path}`, { headers: { 'x-api-key': demo.key } });
    return res.ok ? ((await res.json()) as { data: any }).data : null;
  }

  /**
   * Each Markets and Stocks route with what shows it filled: crypto and stock quotes, candles, venues, search, gainers,
   * totals; the sector heatmap, fundamentals, executives, filings and tokenized assets; analysed news and a stock's news.
   */
  const MARKETS_FILLED: Record<string, (data: any) => boolean> = {
    '/assets?type=CRYPTO&limit=1': (d) => d.items[0]?.price !== null && d.items[0]?.sparkline7d.length > 0,
    '/assets?type=STOCK&limit=1': (d) => d.items[0]?.price !== null,
    '/assets/BTC': (d) => d.description !== null,
    '/assets/AAPL-US/klines?limit=5': (d) => d.length === 5,
    '/assets/BTC/tickers?limit=100': (d) => d.items.some((t: { venue: string }) => t.venue === 'Hyperliquid') && d.items.length > 1,
    '/search?q=apple': (d) => d.items[0]?.symbol === 'AAPL-US',
    '/trending-gainers?limit=1': (d) => d.items.length === 1,
    '/global-stats': (d) => d.activeAssets.CRYPTO > 0 && d.activeAssets.STOCK > 0,
    '/stock/overview?market=US': (d) => d.categories.some((c: { items: Array<{ price: number | null }> }) => c.items.some((i) => i.price !== null)),
    '/stock/AAPL/fundamentals': (d) => d.overview.overviewMetrics.length > 0 && d.financials.incomeStatement.length > 0,
    '/stock/AAPL/company': (d) => d.company.executives.length > 0,
    '/stock/AAPL/sec-filings?limit=5': (d) => d.items.length === 5,
    '/rwa?limit=5': (d) => d.items.length > 0 && d.items.every((i: { tokenList: unknown[] }) => i.tokenList.length > 0),
    '/news?assetSymbol=BTC&limit=5': (d) => d.items.some((i: { analysis: unknown }) => i.analysis !== null),
    '/stock/AAPL/news?limit=1': (d) => d.items.length === 1 && d.source.lastSuccessAt !== null,
    // Full-text search on the embedded database: the stored tsvector, websearch syntax and the trigram fallback.
    '/news/search?q=bitcoin%20-cash&sort=relevance&limit=1': (d) => d.items.length === 1,
    '/news/search?q=%E6%AF%94%E7%89%B9%E5%B8%81&limit=1': (d) => d.items.length === 1,
  };

  /** Routes seen filled: not asked again, so the probes stay inside the demo key's 200 calls a minute. */
  const seenFilled = new Set<string>();

  async function probe(): Promise<Alive> {
    const pending = Object.keys(MARKETS_FILLED).filter((path) => !seenFilled.has(path));
    const [trending, hip3, hip4, holders, ...markets] = await Promise.all([
      data('/hl/trending?limit=200'),
      data('/hl/hip3/smart-trader?coin=xyz:TSLA&limit=1'),
      data('/hl/hip4/smart-trader?outcomeId=0&limit=1'),
      data('/hl/perp/holders?coin=BTC&limit=1'),
      ...pending.map((path) => data(path)),
    ]);
    pending.forEach((path, i) => {
      if (markets[i] !== null && MARKETS_FILLED[path](markets[i])) seenFilled.add(path);
    });
    const items: Array<{ priceChange: string; buyAddresses: number; sellAddresses: number }> = [
      ...(trending?.perp?.items ?? []),
      ...(trending?.spot?.items ?? []),
    ];
    return {
      marketsFilled: Object.keys(MARKETS_FILLED).filter((path) => seenFilled.has(path)),
      trendingWithTraders: items.filter((i) => i.buyAddresses + i.sellAddresses > 0).length,
      trendingMoved: items.filter((i) => Number(i.priceChange) !== 0).length,
      hip3Traders: hip3?.total ?? 0,
      hip4Traders: hip4?.total ?? 0,
      btcHolders: holders?.total ?? 0,
    };
  }

  it('listens on loopback only, as its banner says', () => {
    expect(demo.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it(
    'shows every Markets, Stocks and News route filled, non-empty trending, HIP-3 and HIP-4 smart traders and 100+ BTC holders within 90 seconds',
    async () => {
      let last: Alive | undefined;
      while (Date.now() - startedAt < ALIVE_WITHIN_MS) {
        last = await probe();
        const alive =
          last.marketsFilled.length === Object.keys(MARKETS_FILLED).length &&
          last.trendingWithTraders > 0 &&
          last.trendingMoved > 0 &&
          last.hip3Traders > 0 &&
          last.hip4Traders > 0 &&
          last.btcHolders >= 100;
        if (alive) break;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      expect(last).toEqual({
        marketsFilled: Object.keys(MARKETS_FILLED),
        trendingWithTraders: expect.any(Number),
        trendingMoved: expect.any(Number),
        hip3Traders: expect.any(Number),
        hip4Traders: expect.any(Number),
        btcHolders: expect.any(Number),
      });
      expect(last!.trendingWithTraders).toBeGreaterThan(0);
      expect(last!.trendingMoved).toBeGreaterThan(0);
      expect(last!.hip3Traders).toBeGreaterThan(0);
      expect(last!.hip4Traders).toBeGreaterThan(0);
      expect(last!.btcHolders).toBeGreaterThanOrEqual(100);
    },
    ALIVE_WITHIN_MS + 10_000,
  );

  it(
    "shows the simulated trader's fees, points, referees, a claim round and OPC revenue within 90 seconds",
    async () => {
      expect(demo.traderKey).toMatch(/^mdk_/);
      const traderData = async (path: string) => {
        const res = await fetch(`${demo.base}/api/public/v1${path}`, { headers: { 'x-api-key': demo.traderKey! } });
        return res.ok ? ((await res.json()) as { data: any }).data : null;
      };
      const FILLED: Record<string, (d: any) => boolean> = {
        '/account/fees?limit=1': (d) => d.items.length === 1 && Number(d.items[0].svcFee) > 0,
        '/account/points': (d) => Number(d.balance) > 0 && d.rank >= 1,
        '/account/referrals/referees': (d) => d.total === 2 && Number(d.refereesTotalVolume) > 0,
        '/account/referrals/claims/all': (d) => d.roundIds.length > 0 && d.proofs.length === d.roundIds.length,
        '/account/opc/revenue?limit=1': (d) => d.items.length === 1 && Number(d.items[0].amount) > 0,
      };
      const filled = new Set<string>();
      while (Date.now() - startedAt < ALIVE_WITHIN_MS + 30_000 && filled.size < Object.keys(FILLED).length) {
        for (const path of Object.keys(FILLED).filter((p) => !filled.has(p))) {
          const body = await traderData(path);
          if (body !== null && FILLED[path](body)) filled.add(path);
        }
        if (filled.size < Object.keys(FILLED).length) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      expect([...filled].sort()).toEqual(Object.keys(FILLED).sort());
    },
    ALIVE_WITHIN_MS + 40_000,
  );

  it('answers job:status (--json and the table) from the running server, which holds the embedded database', async () => {
    const json = await runCli(dataDir, ['job:status', '--json']);
    expect(json.code).toBe(0);
    const body = JSON.parse(json.stdout.trim());
    expect(body.ok).toBe(true);
    const names = body.jobs.map((j: { name: string }) => j.name);
    expect(names).toEqual(expect.arrayContaining(['hl.markets', 'hl.mids', 'hl.positions', 'hl.snapshot', 'hl.trades', 'hl.fills']));
    expect(body.jobs.find((j: { name: string }) => j.name === 'hl.snapshot')).toMatchObject({ status: 'ok', holder: expect.any(String) });

    const table = await runCli(dataDir, ['job:status']);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^JOB\s+STATUS\s+STARTED\s+FINISHED\s+ROWS\s+COVERAGE\s+ERROR$/);
    expect(table.stdout).toMatch(/^hl\.snapshot\s+ok\s/m);
  }, 60_000);

  it('keeps the ops token owner-only, and answers the ops route only with it', async () => {
    const lockPath = join(dataDir, EMBEDDED_LOCK_FILE);
    expect(statSync(lockPath).mode & 0o777).toBe(0o600);
    const { server } = JSON.parse(readFileSync(lockPath, 'utf8'));
    const url = `http://${server.host}:${server.port}/ops/jobs`;
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(url, { headers: { 'x-ops-token': 'not-the-token' } })).status).toBe(404);
    expect((await fetch(url, { headers: { 'x-api-key': demo.key } })).status).toBe(404);
    const ok = await fetch(url, { headers: { 'x-ops-token': server.opsToken } });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { data: { jobs: unknown[] } }).data.jobs.length).toBeGreaterThan(0);
  });
});
