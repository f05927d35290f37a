import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { HttpRequestSeries } from './http-request-series';

/**
 * Every Prometheus series the service exposes at /metrics, defined once. Series live in one registry per
 * process (several apps in one test process share it, so tests compare before and after, never absolutes).
 * Label values come from closed sets (route templates, job and provider names), never from input.
 */
export const METRICS_REGISTRY = new Registry();

const registers = [METRICS_REGISTRY];

// ---- HTTP ------------------------------------------------------------------------------------------

/**
 * http_requests_total{route,method,status,adapter} and http_request_duration_seconds{route,adapter}. route:
 * the matched route template (`/api/public/v1/hl/perp/holders`), or `unmatched`. Not prom-client's Counter
 * and Histogram: every request updates them, so they are plain numbers until read (http-request-series.ts).
 */
export const httpRequests = new HttpRequestSeries({
  countName: 'http_requests_total',
  countHelp: 'Requests answered, by route template, method, status and HTTP adapter.',
  durationName: 'http_request_duration_seconds',
  durationHelp: 'Time from the request arriving to the response finishing, by route template and HTTP adapter.',
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
});
httpRequests.registerIn(METRICS_REGISTRY);

// ---- Billing: ledger outbox and usage sync ---------------------------------------------------------

export const ledgerOutboxLength = new Gauge({
  name: 'ledger_outbox_length',
  help: 'Ledger lines waiting in the KV outbox for PostgreSQL, as of the last drain.',
  registers,
});

export const ledgerDrainFailures = new Counter({
  name: 'ledger_drain_failures_total',
  help: 'Ledger outbox drains that failed (the lines stay in the outbox and are retried).',
  registers,
});

export const billingCreditsStore = new Gauge({
  name: 'billing_credits_store',
  help: 'The credits store this replica runs on (CREDITS_STORE): 1 for its store label.',
  labelNames: ['store'] as const,
  registers,
});

export const billingSettlementsPending = new Gauge({
  name: 'billing_settlements_pending',
  help: 'Voids of failed calls and give-ups of admissions with no reply that have not landed yet (retried until they do).',
  registers,
});

export const billingSettlementsFailed = new Counter({
  name: 'billing_settlements_failed_total',
  help: 'Voids and give-ups that never landed (retried for an hour, or the process stopped first): those calls stay charged.',
  registers,
});

export const billingAdmissionsUnavailable = new Counter({
  name: 'billing_admissions_unavailable_total',
  help: 'Calls answered 503 because their admission got no answer from the credits store in time (never charged).',
  registers,
});

export const billingStoreGenerations = new Counter({
  name: 'billing_kv_generations_total',
  help: 'Times this replica found the KV store without billing state (new, or its data lost) and fenced off older ledger drains.',
  registers,
});

export const ledgerLinesLost = new Counter({
  name: 'ledger_lines_lost_total',
  help: 'Outbox lines a drain had read but could not write because the KV store lost its data meanwhile (charges never billed).',
  registers,
});

export const usageSyncFailures = new Counter({
  name: 'usage_sync_failures_total',
  help: 'Usage-meter syncs to PostgreSQL that failed (the deltas stay claimed and are retried).',
  registers,
});

let lastUsageSyncAt: number | undefined;

/** When this replica last completed a usage-meter sync (or started): the lag is measured from it when /metrics is read. */
export function markUsageSynced(atMs = Date.now()): void {
  lastUsageSyncAt = atMs;
}

export const usageSyncLag = new Gauge({
  name: 'usage_sync_lag_seconds',
  help: 'Seconds since this replica last completed a usage-meter sync to PostgreSQL.',
  registers,
  // Current at scrape time, not only as of the last sync: a sync that stopped running shows a growing lag.
  collect() {
    if (lastUsageSyncAt !== undefined) this.set((Date.now() - lastUsageSyncAt) / 1000);
  },
});

// ---- Jobs ------------------------------------------------------------------------------------------

export const jobRuns = new Counter({
  name: 'job_runs_total',
  help: 'Job runs by job and outcome (ok, error, skipped, stopped).',
  labelNames: ['job', 'status'] as const,
  registers,
});

export const jobLastRunTimestamp = new Gauge({
  name: 'job_last_run_timestamp_seconds',
  help: 'When the last run of this job on this replica finished (Unix seconds).',
  labelNames: ['job'] as const,
  registers,
});

export const jobLastRunDuration = new Gauge({
  name: 'job_last_run_duration_seconds',
  help: 'How long the last run of this job on this replica took.',
  labelNames: ['job'] as const,
  registers,
});

export const jobLastRunRows = new Gauge({
  name: 'job_last_run_rows',
  help: 'Rows the last run of this job on this replica wrote.',
  labelNames: ['job'] as const,
  registers,
});

export const jobLastRunSuccess = new Gauge({
  name: 'job_last_run_success',
  help: '1 when the last run of this job on this replica ended ok, 0 otherwise.',
  labelNames: ['job'] as const,
  registers,
});

// ---- Upstream providers ----------------------------------------------------------------------------

/** outcome: ok, or the UpstreamError kind (http, timeout, shape, network, budget, aborted; circuit: refused unsent, the provider failing). */
export const upstreamCalls = new Counter({
  name: 'upstream_calls_total',
  help: 'Upstream calls (one per logical call, retries included) by provider and outcome.',
  labelNames: ['provider', 'outcome'] as const,
  registers,
});

export const upstreamErrors = new Counter({
  name: 'upstream_errors_total',
  help: 'Upstream attempts that failed, by provider and kind (retried ones included).',
  labelNames: ['provider', 'kind'] as const,
  registers,
});

export const upstreamDuration = new Histogram({
  name: 'upstream_call_duration_seconds',
  help: 'Duration of one upstream call, retries and budget waits included, by provider.',
  labelNames: ['provider'] as const,
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers,
});

export const upstreamBudgetRemaining = new Gauge({
  name: 'upstream_budget_remaining',
  help: 'Request budget left in the current window, shared by all replicas, by provider (as of the last spend).',
  labelNames: ['provider'] as const,
  registers,
});

// ---- Caches ----------------------------------------------------------------------------------------

/** result: hit (fresh), miss (loaded from the upstream), stale (served past its TTL because the upstream failed). */
export const cacheLookups = new Counter({
  name: 'cache_lookups_total',
  help: 'Upstream-cache lookups by cache and result (hit, miss, stale).',
  labelNames: ['cache', 'result'] as const,
  registers,
});
