import { WALLET_SESSION_SECURITY } from '../../src/modules/access/backend-api.decorator';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import request from 'supertest';
import { CREDIT_COSTS } from '../../src/modules/billing/credit-costs';
import { LedgerFlusherService } from '../../src/modules/billing/ledger-flusher.service';
import { ERROR_STATUS, ErrorCode } from '../../src/common/errors/error-code';
import { AccountAdminService } from '../../src/modules/account/account-admin.service';
import { HlCatalogService } from '../../src/modules/hl/hl-catalog.service';
import { WATCHLIST_GROUP_EXAMPLE_ID } from '../../src/modules/watchlist/watchlist.public';
import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { publishHlLeaderboardSnapshot, publishHlMarketSnapshot, seedHlReference } from '../support/hl-seed';
import {
  encodeItem,
  FOLLOW,
  HARVESTED,
  REFUSALS_BEYOND_SCHEMA,
  OpenApi,
  Operation,
  queryArbitrary,
  QueryItem,
  safeDecode,
  schemaViolation,
} from '../support/openapi-queries';
import { resetDb } from '../support/reset-db';
import { testConfig } from '../support/test-env';
import { runJob, Simulator } from '../support/hl-stack';
import { startSimulator } from '../../src/simulator/simulator.server';

/**
 * The Schemathesis-style run of issue 17, in the project's own stack: for every GET the app's own OpenAPI
 * document lists, fast-check generates queries from the parameter schemas (valid values and hostile ones),
 * the real app answers them, and every answer must be one the document promises. Bounded: a fixed number of
 * runs per operation and a fixed seed (fast-check prints seed and path on failure; rerun with them).
 */
const SEED = 170_006;
/** Sized so the file stays within about a minute per adapter on a 2-core machine. */
const VALID_RUNS_PER_OPERATION = 60;
const HOSTILE_RUNS_PER_OPERATION = 100;
const RUNS_PER_PROBE = 10;
const RUNS_WITHOUT_KEY = 3;
const ACCOUNTS = 3;

/** What no answer may carry: where the upstreams and the stores live, and stack frames. */
const LEAK_MARKERS = ['api.hyperliquid.xyz', 'postgres://', 'redis://', '127.0.0.1:5432', '127.0.0.1:6379', '\\n    at ', 'node_modules', 'QueryFailedError'];

describe('Every documented GET under generated requests (property run)', () => {
  let t: TestApp;
  /** The market vendors' upstream: the Markets routes read its data (exchange-chain data is seeded below). */
  let sim: Simulator;
  let doc: OpenApi;
  let keys: string[];
  let accountIds: string[];
  let sent = 0;
  let nextKey = 0;
  let charged = 0;
  const chargedRequestIds: string[] = [];
  /** Requests with a valid key answered 429: each is a generated case that never reached its route. */
  const rateLimited: string[] = [];
  /** Requests the document allows (generated from its schemas, no value outside them) that were refused 400. */
  const refusedValid: string[] = [];
  const statuses = new Map<string, Map<number, number>>();
  const cursors = new Map<string, Array<{ query: QueryItem[]; cursor: string }>>();
  const validators = new Map<string, ValidateFunction>();
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const started = Date.now();

  beforeAll(async () => {
    sim = await startSimulator({ wallets: 10 });
    LEAK_MARKERS.push(new URL(sim.url).host);
    t = await createTestApp(testConfig({ ...sim.env, HL_JOBS_ENABLED: 'false' }));
    await resetDb(t.db);
    for (const job of ['markets.crypto', 'markets.tradfi', 'news.ingest', 'news.analyse']) expect((await runJob(t, job)).status).toBe('ok');
    await seedHlReference(t.db);
    await publishHlMarketSnapshot(t);
    await publishHlLeaderboardSnapshot(t);
    t.app.get(HlCatalogService).invalidate();
    // Max tier (600 calls a minute per key), every key an account may hold, and accounts enough that even the
    // fastest adapter's run (about 90 requests a second) never meets a 429.
    const accounts = await Promise.all(Array.from({ length: ACCOUNTS }, () => makeAccount(t, { tier: 'max' })));
    accountIds = accounts.map((a) => a.account.id);
    // The documented example group id names a group of the first account, so /account/watchlist/{groupId} answers 200 (404 for the others).
    await t.db.query(`INSERT INTO watchlist_groups (id, account_id, name) VALUES ($1, $2, 'majors')`, [WATCHLIST_GROUP_EXAMPLE_ID, accountIds[0]]);
    await t.db.query(`INSERT INTO watchlist_entries (group_id, coin) VALUES ($1, 'BTC'), ($1, 'xyz:TSLA')`, [WATCHLIST_GROUP_EXAMPLE_ID]);
    // An active OPC for every other account, so its four reads answer 200 for some keys (403 for the rest).
    for (const [i, id] of accountIds.entries()) {
      if (i % 2) continue;
      await t.db.query(
        `INSERT INTO opc_configs (account_id, name, subdomain, frontend_fee_tenths_bps, builder_address, is_active) VALUES ($1, $2, $2, 25, $3, true)`,
        [id, `property-${i}`, '0x' + String(i + 1).padStart(40, '0')],
      );
    }
    keys = [];
    for (const account of accounts) {
      const more = await Promise.all([1, 2, 3, 4].map(() => t.app.get(AccountAdminService).createKey({ wallet: account.wallet })));
      keys.push(account.key, ...more.map((k) => k.key));
    }
    doc = (
      await request(t.server as never)
        .get('/docs-json')
        .expect(200)
    ).body;
  });
  afterAll(async () => {
    const counts = [...statuses].map(([op, byStatus]) => `${op} ${[...byStatus].map(([s, n]) => `${s}×${n}`).join(' ')}`);
    process.stdout.write(
      `property run (${t.config.http.adapter}): ${sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, seed ${SEED}\n${counts.join('\n')}\n`,
    );
    await t.close();
    await sim.close();
  });

  // The key pipeline's routes and the open ones; the backend's (bearer session) have their own e2e suites.
  const isBackend = (op: Operation) => op.security?.some((requirement) => WALLET_SESSION_SECURITY in (requirement as object)) ?? false;
  const getOperations = () => Object.entries(doc.paths).flatMap(([path, ops]) => (ops.get && !isBackend(ops.get) ? [{ path, op: ops.get }] : []));

  it('finds every public route and the health probes in the document', () => {
    const paths = getOperations().map((o) => o.path);
    expect(paths.filter((p) => p.startsWith('/api/public/v1/')).length).toBeGreaterThanOrEqual(14);
    expect(paths).toEqual(expect.arrayContaining(['/health/live', '/health/ready', '/api/public/v1/hl/perp/holders']));
  });

  it('answers requests built from valid values with a documented status, the envelope and the documented schema', async () => {
    await runEveryOperation('valid', VALID_RUNS_PER_OPERATION);
    // Valid values reach the handlers: every route answered 200 at least once.
    for (const { path, op } of getOperations()) {
      expect({ path, ok: (statuses.get(op.operationId)?.get(200) ?? 0) > 0 }).toEqual({ path, ok: true });
    }
  });

  it("refuses none of the requests generated from the document's own schemas (the document is no looser than the validation)", () => {
    expect(refusedValid).toEqual([]);
  });

  it('answers hostile requests (out of range, wrong types, repeats, unknown names, injections) with a documented status, never a 5xx', async () => {
    await runEveryOperation('hostile', HOSTILE_RUNS_PER_OPERATION);
  });

  it('answers calls without a valid key 401 (429 once an address sent too many unknown keys), and bills nothing', async () => {
    const wellFormedUnknown = `mdk_${'Z'.repeat(32)}`;
    for (const { path, op } of getOperations().filter((o) => o.op.security?.length)) {
      await fc.assert(
        fc.asyncProperty(queryArbitrary(op.parameters ?? [], 'hostile'), fc.constantFrom(undefined, 'not-a-key', '', wellFormedUnknown), async (query, key) => {
          const res = await check(path, op, query, key);
          const refused = key === wellFormedUnknown ? [401, 429] : [401];
          expect({ path, key, refused: refused.includes(res.status) }).toEqual({ path, key, refused: true });
        }),
        { numRuns: RUNS_WITHOUT_KEY, seed: SEED, endOnFailure: true },
      );
    }
  });

  it('met no rate limit on a valid key, so every generated request was checked against its route', () => {
    expect(rateLimited).toEqual([]);
  });

  it('moved the credits by exactly the costs of the 2xx answers, one ledger row each', async () => {
    await t.app.get(LedgerFlusherService).flush();
    const [{ balance }] = await t.db.query(`SELECT sum(credit_balance)::text AS balance FROM accounts WHERE id = ANY($1::uuid[])`, [accountIds]);
    expect(Number(balance)).toBe(ACCOUNTS * 100_000_000 - charged);
    const rows: Array<{ reference_id: string }> = await t.db.query(
      `SELECT reference_id FROM credit_transactions WHERE account_id = ANY($1::uuid[]) AND type = 'charge'`,
      [accountIds],
    );
    expect(rows.map((r) => r.reference_id).sort()).toEqual([...chargedRequestIds].sort());
  });

  async function runEveryOperation(mode: 'valid' | 'hostile', runs: number) {
    for (const { path, op } of getOperations()) {
      const keyed = op.security !== undefined && op.security.length > 0;
      await fc.assert(
        fc.asyncProperty(queryArbitrary(op.parameters ?? [], mode), async (query) => {
          await check(path, op, query, keyed ? keys[nextKey++ % keys.length] : undefined, mode);
        }),
        { numRuns: keyed ? runs : RUNS_PER_PROBE, seed: SEED, endOnFailure: true },
      );
    }
  }

  /** Sends one generated request and checks the answer against the operation's documented responses. */
  async function check(path: string, op: Operation, query: QueryItem[], key: string | undefined, mode: 'valid' | 'hostile' = 'hostile') {
    const resolved = resolveCursor(path, query);
    const url = `${withPathExamples(path, op)}${resolved.length ? '?' : ''}${resolved.map(encodeItem).join('&')}`;
    const req = request(t.server as never).get(url);
    const res = await (key === undefined ? req : req.set('x-api-key', key));
    sent++;
    const byStatus = statuses.get(op.operationId) ?? new Map<number, number>();
    byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
    statuses.set(op.operationId, byStatus);
    const seen = { url, status: res.status, body: res.text.slice(0, 300) };

    expect({ ...seen, serverError: res.status >= 500 }).toEqual({ ...seen, serverError: false });
    expect({ ...seen, documented: Object.keys(op.responses) }).toEqual({ ...seen, documented: expect.arrayContaining([String(res.status)]) });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(res.text) as { code: unknown; msg: unknown; data: unknown };
    expect(Object.keys(body).sort()).toEqual(['code', 'data', 'msg']);
    if (res.status === 200) {
      expect(body).toMatchObject({ code: '0', msg: 'success' });
      const validate = validatorFor(op);
      expect({ ...seen, schemaErrors: validate(body) ? [] : validate.errors }).toEqual({ ...seen, schemaErrors: [] });
    } else {
      expect({ ...seen, code: body.code, data: body.data }).toEqual({ ...seen, code: expect.any(String), data: null });
      expect(ERROR_STATUS[body.code as ErrorCode]).toBe(res.status);
      if (res.status === 400) expectNamedField(seen, String(body.msg), op, resolved);
    }
    // What the schema forbids is refused, not served (Schemathesis's negative-data check).
    const validKey = key !== undefined && keys.includes(key);
    if (validKey && res.status === 429) rateLimited.push(url);
    const forbidden = validKey ? schemaViolation(op.parameters ?? [], resolved) : null;
    if (mode === 'valid' && validKey && res.status === 400 && schemaViolation(op.parameters ?? [], resolved) === null) {
      const msg = String(body.msg);
      // `forms` of sec-filings is issue 38 item 13's (its schema and its validation change together there).
      if (!REFUSALS_BEYOND_SCHEMA.some((rule) => rule.test(msg)) && !msg.startsWith('forms: ')) refusedValid.push(`${url} ${msg}`);
    }
    if (forbidden !== null && res.status !== 429) {
      expect({ ...seen, forbidden, refused: res.status === 400 }).toEqual({ ...seen, forbidden, refused: true });
    }
    const decodedUrl = safeDecode(url).toLowerCase();
    for (const marker of LEAK_MARKERS.filter((m) => !decodedUrl.includes(m.toLowerCase()))) {
      expect({ ...seen, leaks: res.text.toLowerCase().includes(marker.toLowerCase()) ? marker : null }).toEqual({ ...seen, leaks: null });
    }
    // Every header the document promises for this status is there.
    for (const header of Object.keys(op.responses[String(res.status)].headers ?? {})) {
      expect({ ...seen, header, present: res.headers[header.toLowerCase()] !== undefined }).toEqual({ ...seen, header, present: true });
    }
    if (op.security?.length && validKey && res.status < 300) {
      const cost = CREDIT_COSTS[op.operationId as keyof typeof CREDIT_COSTS];
      expect(res.headers['x-credits-cost']).toBe(String(cost));
      charged += cost;
      if (cost > 0) chargedRequestIds.push(res.headers['x-request-id']);
    } else if (op.security?.length) {
      expect(res.headers['x-credits-cost']).toBe('0');
    }
    const nextCursor = (body.data as { nextCursor?: unknown } | null)?.nextCursor;
    if (typeof nextCursor === 'string') {
      const query = resolved.filter((item) => !('name' in item && item.name === 'cursor'));
      cursors.set(path, [...(cursors.get(path) ?? []).slice(-20), { query, cursor: nextCursor }]);
    }
    return res;
  }

  /** A 400 names the field: one the route declares, or one the request sent. */
  function expectNamedField(seen: object, msg: string, op: Operation, query: QueryItem[]) {
    const field = /^([^:]*): /.exec(msg)?.[1];
    // A raw fragment's name as sent, or decoded (Express turns a broken percent-encoding into U+FFFD).
    const sentNames = query.flatMap((item) => ('name' in item ? [item.name] : [item.raw.split('=')[0], ...new URLSearchParams(item.raw).keys()]));
    const named =
      field !== undefined &&
      [...(op.parameters ?? []).map((p) => p.name), ...sentNames, 'query'].some((n) => field === n || field.startsWith(`${n}[`) || field.startsWith(`${n}.`));
    expect({ ...seen, msg, namesAField: named }).toEqual({ ...seen, msg, namesAField: true });
  }

  function validatorFor(op: Operation): ValidateFunction {
    let validate = validators.get(op.operationId);
    if (!validate) {
      const schema = op.responses['200'].content?.['application/json']?.schema;
      expect({ operation: op.operationId, documentsItsBody: schema !== undefined }).toEqual({ operation: op.operationId, documentsItsBody: true });
      // The response schema with the document's components beside it, so its #/components/... refs resolve.
      validate = ajv.compile({ ...schema, components: doc.components });
      validators.set(op.operationId, validate);
    }
    return validate;
  }

  function resolveCursor(path: string, query: QueryItem[]): QueryItem[] {
    const pool = cursors.get(path) ?? [];
    const earlier = pool.length ? pool[sent % pool.length] : undefined;
    const marker = query.find((item) => 'name' in item && (item.value === FOLLOW || item.value === HARVESTED));
    if (marker && 'name' in marker && marker.value === FOLLOW) {
      return earlier ? [...earlier.query, { name: 'cursor', value: earlier.cursor }] : query.filter((item) => item !== marker);
    }
    return query.map((item) => ('name' in item && item.value === HARVESTED ? { ...item, value: earlier?.cursor ?? 'bm90LWEtY3Vyc29y' } : item));
  }
});

/** The path with each `{name}` replaced by its documented example (a symbol the catalogue lists). */
function withPathExamples(path: string, op: Operation): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const parameter = (op.parameters ?? []).find((p) => p.in === 'path' && p.name === name);
    return encodeURIComponent(String(parameter?.example ?? parameter?.schema?.example ?? name));
  });
}
