import { Logger } from '@nestjs/common';
import { abortError } from '../../common/async/abort';
import { upstreamCalls, upstreamDuration, upstreamErrors } from '../../infra/metrics/metrics';
import { fetchUpstream, Sleep, UpstreamResponse } from './fetch-json';
import { UpstreamError } from './upstream.error';
import { RequestBudget } from './request-budget';
import { CircuitAdmission, UpstreamCircuit } from './upstream-circuit';

export interface UpstreamHttpClientOptions {
  /** Names the upstream in errors, logs and metric labels. */
  provider: string;
  /** Per attempt, covering the headers and the whole body. */
  timeoutMs: number;
  /** Attempts after the first; only 429, 5xx, timeouts and network failures are retried. */
  maxRetries: number;
  /** The pool every attempt spends from, shared by all replicas; none means the upstream is not budgeted. */
  budget?: RequestBudget;
  /**
   * Longest a call waits for room in the budget before failing with kind 'budget'. Unset, a call waits for
   * the next window (a job can); a request a client is waiting on should not.
   */
  maxBudgetWaitMs?: number;
  /** Sent with every request (a vendor's key header, the User-Agent SEC asks for). */
  headers?: Readonly<Record<string, string>>;
  /**
   * Fails calls at once while the provider is known to be failing (UpstreamCircuit): for a vendor whose reads
   * a client waits on. None: every call tries the upstream, as a job's fan-out over a flaky host wants.
   */
  circuit?: UpstreamCircuit;
  logger?: Logger;
  /** Injectable so tests do not wait out real backoff. */
  sleep?: Sleep;
  random?: () => number;
}

export interface UpstreamRequest<T> {
  /** Names the call in logs ("coins/markets failed (http)"): a closed set, never a URL with parameters. */
  label: string;
  url: string;
  method?: 'GET' | 'POST';
  /** Sent as JSON when present. */
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
  /** 'text' hands `parse` the raw body (feeds); 'bytes', a Buffer (compressed files); 'json', the default, the parsed document. */
  responseType?: 'json' | 'text' | 'bytes';
  /** This call's timeout when it differs from the client's (a large document). */
  timeoutMs?: number;
  /** What every attempt costs from the budget (default 1); 0 spends nothing (another host, not limited). */
  weight?: number;
  /** A history read: also spends from the budget's history share. */
  history?: boolean;
  /** Checks the body's shape: typed data, or an UpstreamError of kind 'shape'. */
  parse: (body: unknown) => T;
  /** Weight the upstream charges once it knows the response size, recorded after parsing. */
  surcharge?: (result: T) => number;
  signal?: AbortSignal;
}

/**
 * A conditional GET: the caller sends If-None-Match / If-Modified-Since in `headers`; a 304 is an answer
 * (body null), and `parse` sees the status and the response headers (the validators for next time).
 */
export interface ConditionalGetRequest<T> extends Omit<UpstreamRequest<T>, 'method' | 'body' | 'parse' | 'surcharge'> {
  /** Checks the answer's shape: typed data, or an UpstreamError of kind 'shape'. */
  parse: (response: UpstreamResponse) => T;
}

/**
 * A GET where some non-2xx statuses are answers, not failures (a file host answering 403 for a file not yet
 * published): `parse` sees them with a null body; they are not retried, logged or counted as errors.
 */
export interface AcceptingGetRequest<T> extends ConditionalGetRequest<T> {
  acceptStatuses: readonly number[];
}

/**
 * One upstream's HTTP client: timeouts, bounded retries with backoff and jitter, Retry-After on 429, the
 * provider's shared request budget spent before every attempt, shape checks, a warning per failed call,
 * and per-call metrics (calls by outcome, failed attempts by kind, duration). With a circuit, a call made
 * while it is open is refused before any of that: counted as outcome 'circuit', no attempt, no duration.
 * Throws UpstreamError only.
 * close() aborts everything in flight or waiting for budget: call it at shutdown so jobs end promptly.
 */
export class UpstreamHttpClient {
  readonly provider: string;
  private readonly logger: Logger;
  private readonly stopping = new AbortController();

  constructor(private readonly options: UpstreamHttpClientOptions) {
    this.provider = options.provider;
    this.logger = options.logger ?? new Logger(`UpstreamHttpClient:${options.provider}`);
  }

  get budget(): RequestBudget | undefined {
    return this.options.budget;
  }

  close(): void {
    this.stopping.abort(abortError('shutting down'));
  }

  async request<T>(call: UpstreamRequest<T>): Promise<T> {
    return this.send(call, { acceptNotModified: false }, async (response) => {
      const result = call.parse(response.body);
      const extra = call.surcharge?.(result) ?? 0;
      if (this.options.budget && extra > 0) await this.options.budget.charge(extra, { history: call.history ?? false });
      return result;
    });
  }

  conditionalGet<T>(call: ConditionalGetRequest<T>): Promise<T> {
    return this.send({ ...call, method: 'GET' }, { acceptNotModified: true }, async (response) => call.parse(response));
  }

  getAccepting<T>({ acceptStatuses, ...call }: AcceptingGetRequest<T>): Promise<T> {
    return this.send({ ...call, method: 'GET' }, { acceptNotModified: false, acceptStatuses }, async (response) => call.parse(response));
  }

  private async send<T>(
    call: Omit<UpstreamRequest<unknown>, 'parse' | 'surcharge'>,
    { acceptNotModified, acceptStatuses }: { acceptNotModified: boolean; acceptStatuses?: readonly number[] },
    handle: (response: UpstreamResponse) => Promise<T>,
  ): Promise<T> {
    const { provider, budget, maxBudgetWaitMs, circuit } = this.options;
    const admission = this.admit();
    const signal = call.signal ? AbortSignal.any([this.stopping.signal, call.signal]) : this.stopping.signal;
    const weight = call.weight ?? 1;
    const history = call.history ?? false;
    const endTimer = upstreamDuration.startTimer({ provider });
    try {
      const response = await fetchUpstream({
        url: call.url,
        method: call.method,
        body: call.body,
        headers: { ...this.options.headers, ...call.headers },
        responseType: call.responseType,
        acceptNotModified,
        acceptStatuses,
        timeoutMs: call.timeoutMs ?? this.options.timeoutMs,
        // A trial asks a failing upstream once; its next chance is the next trial.
        maxRetries: admission === 'trial' ? 0 : this.options.maxRetries,
        provider,
        signal,
        sleep: this.options.sleep,
        random: this.options.random,
        onRetry: ({ attempt, delayMs, error }) => {
          upstreamErrors.inc({ provider, kind: error.kind });
          this.logger.debug(`${call.label} attempt ${attempt} failed (${error.message}); retrying in ${delayMs} ms`);
        },
        // Every attempt, retries included, is a request the upstream counts against us.
        beforeAttempt: budget ? () => budget.spend(weight, spendOptions(signal, history, maxBudgetWaitMs)) : undefined,
      });
      circuit?.answered(admission);
      const result = await handle(response);
      upstreamCalls.inc({ provider, outcome: 'ok' });
      return result;
    } catch (err) {
      throw this.failed(call.label, admission, err);
    } finally {
      endTimer();
    }
  }

  /** 'call' without a circuit; a refusal of an open circuit is counted here, as the call it stands for. */
  private admit(): CircuitAdmission {
    const { provider, circuit } = this.options;
    if (!circuit) return 'call';
    try {
      return circuit.admit();
    } catch (err) {
      upstreamCalls.inc({ provider, outcome: 'circuit' });
      throw err;
    }
  }

  /** Counts and logs the failed call; an abort is the caller stopping, not the upstream failing: not logged. */
  private failed(label: string, admission: CircuitAdmission, err: unknown): unknown {
    const { provider, circuit } = this.options;
    if (!(err instanceof UpstreamError)) {
      // A bug past the response (a parser's): the upstream did answer.
      circuit?.answered(admission);
      return err;
    }
    circuit?.failed(admission, err);
    upstreamCalls.inc({ provider, outcome: err.kind });
    if (err.kind === 'aborted') return err;
    upstreamErrors.inc({ provider, kind: err.kind });
    this.logger.warn(`${label} failed (${err.kind}): ${err.message}`);
    return err;
  }
}

/** Only the keys that apply, so the budget sees `{ signal, history }` from a caller that set no wait limit. */
function spendOptions(signal: AbortSignal, history: boolean, maxWaitMs: number | undefined) {
  return maxWaitMs === undefined ? { signal, history } : { signal, history, maxWaitMs };
}
