import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { setTimeout as delay } from 'node:timers/promises';
import { AppConfig, loadAppConfig } from '../../src/config/app.config';
import { MemoryKvStore } from '../../src/infra/kv/memory-kv.store';
import { SecFilings } from '../../src/modules/stocks/providers/sec-filings';
import { UpstreamError } from '../../src/providers/kit/upstream.error';
import { CIRCUIT_RETRY_MS } from '../../src/providers/kit/upstream-circuit';
import { SecEdgarClient } from '../../src/providers/sec-edgar/sec-edgar.client';
import { simulatorEnv } from '../../src/simulator/protocol-registry';
import { SIMULATOR_SEC_USER_AGENT } from '../../src/simulator/sec/sec.protocol';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator.server';
import { isUsStock } from '../../src/simulator/world/sec-registrants';

const YEARLY_FORMS = ['10-K', '10-Q', '8-K', '4', 'DEF 14A'];

function configOf(env: Record<string, string>, sec: Partial<AppConfig['stockVendors']['sec']> = {}): ConfigService<AppConfig, true> {
  const config = loadAppConfig({ ...env, MARKET_UPSTREAM_MAX_RETRIES: '0' });
  return new ConfigService<AppConfig, true>({
    ...config,
    stockVendors: { ...config.stockVendors, sec: { ...config.stockVendors.sec, ...sec } },
  } as unknown as Record<string, unknown>);
}

/** The SEC EDGAR client against the simulator's `sec` protocol, configured by the lines `--print-env` prints. */
describe('SEC EDGAR against the upstream simulator', () => {
  let sim: RunningSimulator;
  let sut: SecEdgarClient;
  let warn: jest.SpyInstance;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, wallets: 20 });
    sut = new SecEdgarClient(configOf(sim.env), new MemoryKvStore());
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterAll(async () => {
    warn.mockRestore();
    sut.onModuleDestroy();
    await sim.close();
  });

  it('prints the settings that make SEC the filings vendor, with a declared User-Agent', () => {
    const env = simulatorEnv(sim.url);
    expect(env).toMatchObject({
      STOCK_FILINGS_VENDOR: 'sec',
      SEC_USER_AGENT: SIMULATOR_SEC_USER_AGENT,
      SEC_DATA_URL: `${sim.url}/sec`,
      SEC_FILES_URL: `${sim.url}/sec`,
      SEC_REQUESTS_PER_SECOND: '8',
    });
    expect(simulatorEnv(sim.url, { secRequestsPerSecond: 5 }).SEC_REQUESTS_PER_SECOND).toBe('4');
    expect(loadAppConfig(env).stockVendors.filingsVendor).toBe('sec');
  });

  it("maps every US stock of the world's listings to a CIK, share classes to one, no foreign listing", async () => {
    const tickers = await sut.tickers();
    const usStocks = sim.world.markets.listings.filter(isUsStock).map((listing) => listing.symbol);
    expect([...tickers.keys()].sort()).toEqual([...usStocks].sort());
    expect(tickers.get('GOOG')).toEqual(tickers.get('GOOGL'));
    expect(tickers.get('GOOGL')).toMatchObject({ name: 'Alphabet Inc.' });
    expect(new Set([...tickers.values()].map((r) => r.cik)).size).toBe(usStocks.length - 1);
    expect(await sut.registrant('0700.HK')).toBeNull();
    expect(await sut.registrant('SPY')).toBeNull();
  });

  it('serves years of filings, more than the recent block holds, with older pages that continue it', async () => {
    const { cik } = (await sut.registrant('AAPL'))!;
    const submissions = await sut.submissions(cik);
    expect(submissions).toMatchObject({ cik, name: 'Apple Inc.', tickers: ['AAPL'] });
    expect(submissions.recent).toHaveLength(1000);
    for (const form of YEARLY_FORMS) expect(submissions.recent.some((row) => row.form === form)).toBe(true);
    const dates = submissions.recent.map((row) => row.filingDate);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(submissions.files.length).toBeGreaterThan(0);

    const [newestPage] = submissions.files;
    const page = await sut.submissionsFile(newestPage.name);
    expect(page).toHaveLength(newestPage.filingCount);
    expect(page[0].filingDate).toBe(newestPage.filingTo);
    expect(page[page.length - 1].filingDate).toBe(newestPage.filingFrom);
    expect(newestPage.filingTo <= dates[dates.length - 1]).toBe(true);
    const accessions = new Set([...submissions.recent, ...page].map((row) => row.accessionNumber));
    expect(accessions.size).toBe(submissions.recent.length + page.length);
  });

  it('files a 10-K every year and a 10-Q every quarter', async () => {
    const { cik } = (await sut.registrant('MSFT'))!;
    const submissions = await sut.submissions(cik);
    const all = [...submissions.recent, ...(await Promise.all(submissions.files.map((file) => sut.submissionsFile(file.name)))).flat()];
    const tenKYears = all.filter((row) => row.form === '10-K').map((row) => Number(row.filingDate.slice(0, 4)));
    const firstYear = Math.min(...tenKYears);
    const lastFullYear = new Date().getUTCFullYear() - 1;
    for (let year = firstYear; year <= lastFullYear; year++) expect(tenKYears.filter((y) => y === year)).toHaveLength(1);
    const lastYearQs = all.filter((row) => row.form === '10-Q' && row.filingDate.startsWith(String(lastFullYear)));
    expect(lastYearQs).toHaveLength(3);
    expect(all.find((row) => row.form === '8-K' && row.items === '2.02,9.01')).toBeDefined();
  });

  it('lists filings through SecFilings, reading older pages only for a range before the recent block', async () => {
    const filings = new SecFilings(sut);
    sim.protocols.sec.resetCounters();
    const recentOnly = await filings.listFilings({ symbol: 'AAPL', forms: ['10-K'], limit: 2 });
    expect(recentOnly!.filings.map((f) => f.formType)).toEqual(['10-K', '10-K']);
    expect(sim.protocols.sec.counters.requestsByRoute['submissions/page']).toBeUndefined();

    const old = await filings.listFilings({ symbol: 'AAPL', forms: ['10-k', '10-Q'], from: '2000-01-01', to: '2009-12-31', limit: 50 });
    expect(old!.filings.length).toBeGreaterThan(0);
    expect(old!.filings.every((f) => f.filingDate <= '2009-12-31' && ['10-K', '10-Q'].includes(f.formType))).toBe(true);
    expect(sim.protocols.sec.counters.requestsByRoute['submissions/page']).toBeGreaterThan(0);
    const [first] = old!.filings;
    // Links are handed out on the SEC's public site (SEC_ARCHIVES_URL); the simulator serves the same paths.
    const path = `/Archives/edgar/data/${Number(old!.registrantId)}/${first.accessionNo.replace(/-/g, '')}/${first.reportUrl.split('/').pop()}`;
    expect(first.reportUrl).toBe(`https://www.sec.gov${path}`);
    expect((await fetch(`${sim.url}/sec${path}`, { headers: { 'user-agent': SIMULATOR_SEC_USER_AGENT } })).status).toBe(200);
  });

  it('draws the same CIKs and filings for the same seed', async () => {
    const twin = await startSimulator({ port: 0, wallets: 20 });
    try {
      const client = new SecEdgarClient(configOf(twin.env), new MemoryKvStore());
      const [mine, theirs] = await Promise.all([sut.registrant('NVDA'), client.registrant('NVDA')]);
      expect(theirs).toEqual(mine);
      const [a, b] = await Promise.all([sut.submissions(mine!.cik), client.submissions(mine!.cik)]);
      expect(b).toEqual(a);
    } finally {
      await twin.close();
    }
  });

  it('answers 403 to a client that declares no contact, as SEC does', async () => {
    const undeclared = new SecEdgarClient(configOf(sim.env, { userAgent: 'python-requests/2.32' }), new MemoryKvStore());
    await expect(undeclared.tickers()).rejects.toMatchObject({ kind: 'http', upstreamStatus: 403 });
    const bare = await fetch(`${sim.url}/sec/files/company_tickers.json`);
    expect(bare.status).toBe(403);
    expect(await bare.text()).toContain('Undeclared Automated Tool');
  });
});

describe("SEC's rate limit in the simulator", () => {
  const BLOCK_MS = 1_500;
  let sim: RunningSimulator;
  let warn: jest.SpyInstance;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, wallets: 20, secRequestsPerSecond: 3, secBlockMs: BLOCK_MS });
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterAll(async () => {
    warn.mockRestore();
    await sim.close();
  });

  it('answers 429 with the threshold page past the limit, and keeps the address limited for the block', async () => {
    // A client budgeted above the simulator's limit, as a misconfigured deployment would be; its circuit's
    // clock moves when the test says (a 429 opens it: SEC is then left alone for CIRCUIT_RETRY_MS).
    let skipped = 0;
    const client = new SecEdgarClient(configOf(sim.env, { requestsPerSecond: 10 }), new MemoryKvStore(), () => Date.now() + skipped);
    const cik = String(sim.protocols.sec.registrants[0].cik);
    await delay(1_000 - (Date.now() % 1_000) + 10);
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => client.submissions(cik)));
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => o.reason as UpstreamError);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    // Those sent before the first 429 came back are refused by SEC; any after it, by the open circuit.
    const bySec = refused.filter((e) => e.kind === 'http');
    expect(bySec.map((e) => e.upstreamStatus)[0]).toBe(429);
    expect(refused.map((e) => (e.kind === 'http' ? `http ${e.upstreamStatus}` : e.kind)).sort()).toEqual(
      [...bySec.map(() => 'http 429'), ...Array<string>(3 - bySec.length).fill('circuit')].sort(),
    );

    await delay(1_000 - (Date.now() % 1_000) + 10);
    const stillLimited = await fetch(`${sim.url}/sec/submissions/CIK${cik.padStart(10, '0')}.json`, { headers: { 'user-agent': SIMULATOR_SEC_USER_AGENT } });
    expect(stillLimited.status).toBe(429);
    expect(stillLimited.headers.get('retry-after')).toBeNull();
    expect(await stillLimited.text()).toContain('Request Rate Threshold Exceeded');

    await delay(BLOCK_MS);
    skipped += CIRCUIT_RETRY_MS;
    expect((await client.submissions(cik)).recent.length).toBeGreaterThan(0);
    expect(sim.protocols.sec.counters.rateLimited).toBe(bySec.length + 1);
    client.onModuleDestroy();
  });
});
