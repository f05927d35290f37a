import request from 'supertest';
import { runCli } from '../../src/cli/cli-runner';
import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { get, PUBLIC } from '../support/http';
import { resetDb } from '../support/reset-db';
import { TEST_ADAPTER, testConfig } from '../support/test-env';

/** One sample of the exposition text: the value of `name` whose labels include `labels`, or 0 if there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map(([, key, value]) => [key, value]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return 0;
}

async function scrape(t: TestApp): Promise<string> {
  const res = await request(t.server as Parameters<typeof request>[0]).get('/metrics');
  expect(res.status).toBe(200);
  return res.text;
}

describe('GET /metrics', () => {
  let t: TestApp;

  beforeAll(async () => {
    // No job on a schedule: the one run below is the only run these series see.
    t = await createTestApp(testConfig({ JOBS_ENABLED: 'false' }));
    await resetDb(t.db);
  });
  afterAll(() => t.close());

  it('answers the Prometheus text itself, without a key and without the envelope', async () => {
    const res = await request(t.server as Parameters<typeof request>[0]).get('/metrics');

    expect(res.status).toBe(200);
    // Express moves the charset ahead of the version; Prometheus reads either order.
    expect(res.headers['content-type']).toMatch(/^text\/plain;/);
    expect(res.headers['content-type']).toContain('version=0.0.4');
    expect(res.headers['x-credits-cost']).toBeUndefined();
    expect(res.text).toMatch(/^# HELP /);
    expect(res.text).toContain('# TYPE http_requests_total counter');
    expect(res.text).toContain('# TYPE process_cpu_seconds_total counter');
  });

  it('counts requests by route template, method, status and adapter, and times them', async () => {
    const { key } = await makeAccount(t, { tier: 'pro' });
    const mids = { route: `${PUBLIC}/hl/prices/mids`, method: 'GET', adapter: TEST_ADAPTER };
    const before = await scrape(t);

    expect((await get(t, '/hl/prices/mids', key)).status).toBe(200);
    expect((await get(t, '/hl/prices/mids')).status).toBe(401);
    expect((await get(t, '/hl/prices/mids')).status).toBe(401);
    expect((await get(t, '/no/such/route/raw-path-marker', key)).status).toBe(404);
    const after = await scrape(t);

    const delta = (labels: Record<string, string>) => sample(after, 'http_requests_total', labels) - sample(before, 'http_requests_total', labels);
    expect(delta({ ...mids, status: '200' })).toBe(1);
    expect(delta({ ...mids, status: '401' })).toBe(2);
    expect(delta({ route: 'unmatched', method: 'GET', status: '404', adapter: TEST_ADAPTER })).toBe(1);
    // Never the raw path: its cardinality is the client's to choose. (A word, not digits: sample values are numbers.)
    expect(after).not.toContain('raw-path-marker');
    const timed = (text: string) => sample(text, 'http_request_duration_seconds_count', { route: mids.route, adapter: TEST_ADAPTER });
    expect(timed(after) - timed(before)).toBe(3);
    expect(sample(after, 'http_request_duration_seconds_sum', { route: mids.route, adapter: TEST_ADAPTER })).toBeGreaterThan(0);
  });

  it('shows the last run of a job that the ops CLI ran: when, how long, its outcome and rows', async () => {
    const out: string[] = [];
    const job = { job: 'housekeeping.job-runs' };
    const okRuns = (text: string) => sample(text, 'job_runs_total', { ...job, status: 'ok' });
    const before = await scrape(t);
    const startedAt = Date.now() / 1000;

    const code = await runCli(['job:run', 'housekeeping.job-runs', '--json'], {
      io: { stdout: (text) => out.push(text), stderr: (text) => out.push(text) },
      withApp: (work) => work(t.app),
    });
    const text = await scrape(t);

    expect({ code, out }).toEqual({ code: 0, out: [expect.stringContaining('"status":"ok"')] });
    expect(okRuns(text) - okRuns(before)).toBe(1);
    expect(sample(text, 'job_last_run_timestamp_seconds', job)).toBeGreaterThanOrEqual(startedAt);
    expect(sample(text, 'job_last_run_timestamp_seconds', job)).toBeLessThanOrEqual(Date.now() / 1000);
    expect(sample(text, 'job_last_run_success', job)).toBe(1);
    expect(text).toMatch(/^job_last_run_duration_seconds\{job="housekeeping\.job-runs"\} \d/m);
    expect(text).toMatch(/^job_last_run_rows\{job="housekeeping\.job-runs"\} \d+$/m);
  });

  it('is left out of the OpenAPI document', async () => {
    const res = await request(t.server as Parameters<typeof request>[0]).get('/docs-json');

    expect(Object.keys(res.body.paths)).not.toContain('/metrics');
  });
});

describe('GET /metrics with METRICS_ENABLED=false', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(testConfig({ METRICS_ENABLED: 'false' }));
  });
  afterAll(() => t.close());

  it('answers exactly like an unknown route', async () => {
    const server = t.server as Parameters<typeof request>[0];
    const metrics = await request(server).get('/metrics');
    const unknown = await request(server).get('/metricz');

    expect(metrics.status).toBe(404);
    expect(metrics.body).toEqual({ ...unknown.body });
    expect(metrics.body).toEqual({ code: 'NOT_FOUND', msg: 'route not found', data: null });
  });
});
