import type { Metric, MetricValue, Registry } from 'prom-client';

/** The label of a request no route matched: the raw path would let any client add series. */
export const UNMATCHED_ROUTE = 'unmatched';

/** What one adapter's requests to one route add up to since the process started. */
interface RouteTotals {
  route: string;
  adapter: string;
  /** Requests per bucket (not cumulative; the last slot is past the highest bound). */
  buckets: number[];
  sum: number;
  count: number;
  /** Requests by status, then method: a request finds its counter without building a key string. */
  answered: Map<number, Map<string, number>>;
}

export interface HttpRequestSeriesOptions {
  countName: string;
  countHelp: string;
  durationName: string;
  durationHelp: string;
  /** Upper bounds in seconds, ascending. */
  buckets: number[];
}

/** Counts one app's requests (its adapter fixed) into the shared series. */
export interface HttpRequestRecorder {
  record(route: string, method: string, status: number, seconds: number): void;
}

/**
 * http_requests_total and http_request_duration_seconds, kept as plain numbers per route and turned into
 * Prometheus samples only when /metrics is read. prom-client's Counter and Histogram hash the label set
 * on every update, which cost the billed route measurably (docs/benchmarks.md); here a request costs
 * three map lookups, a few additions and a walk of the bucket bounds.
 */
export class HttpRequestSeries {
  private readonly byAdapter = new Map<string, Map<string, RouteTotals>>();

  constructor(private readonly options: HttpRequestSeriesOptions) {}

  recorder(adapter: string): HttpRequestRecorder {
    let routes = this.byAdapter.get(adapter);
    if (routes === undefined) this.byAdapter.set(adapter, (routes = new Map()));
    const { buckets } = this.options;
    const knownRoutes = routes;
    return {
      record(route, method, status, seconds) {
        let totals = knownRoutes.get(route);
        if (totals === undefined) {
          totals = { route, adapter, buckets: new Array<number>(buckets.length + 1).fill(0), sum: 0, count: 0, answered: new Map() };
          knownRoutes.set(route, totals);
        }
        let slot = 0;
        while (slot < buckets.length && seconds > buckets[slot]) slot += 1;
        totals.buckets[slot] += 1;
        totals.sum += seconds;
        totals.count += 1;
        let byMethod = totals.answered.get(status);
        if (byMethod === undefined) totals.answered.set(status, (byMethod = new Map()));
        byMethod.set(method, (byMethod.get(method) ?? 0) + 1);
      },
    };
  }

  /** Adds both series to the registry /metrics reads. */
  registerIn(registry: Registry): void {
    const { countName, countHelp, durationName, durationHelp } = this.options;
    registry.registerMetric(this.metric(countName, countHelp, 'counter', () => this.countSamples()));
    registry.registerMetric(this.metric(durationName, durationHelp, 'histogram', () => this.durationSamples()));
  }

  private metric(name: string, help: string, type: 'counter' | 'histogram', values: () => MetricValue<string>[]): Metric {
    const get = async () => ({ name, help, type, values: values(), aggregator: 'sum' as const });
    // The registry reads get() (and reset() when told to reset): the rest of prom-client's Metric is unused.
    return { name, help, type, get, reset: () => this.byAdapter.forEach((routes) => routes.clear()) } as unknown as Metric;
  }

  private *routes(): Iterable<RouteTotals> {
    for (const routes of this.byAdapter.values()) yield* routes.values();
  }

  private countSamples(): MetricValue<string>[] {
    const samples: MetricValue<string>[] = [];
    for (const { route, adapter, answered } of this.routes()) {
      for (const [status, byMethod] of answered) {
        for (const [method, value] of byMethod) samples.push({ labels: { route, method, status: String(status), adapter }, value });
      }
    }
    return samples;
  }

  private durationSamples(): MetricValue<string>[] {
    const { durationName: name, buckets: bounds } = this.options;
    const samples: MetricValue<string>[] = [];
    for (const { route, adapter, buckets, sum, count } of this.routes()) {
      let cumulative = 0;
      bounds.forEach((le, slot) => {
        cumulative += buckets[slot];
        samples.push({ metricName: `${name}_bucket`, labels: { route, adapter, le }, value: cumulative } as MetricValue<string>);
      });
      samples.push({ metricName: `${name}_bucket`, labels: { route, adapter, le: '+Inf' }, value: count } as MetricValue<string>);
      samples.push({ metricName: `${name}_sum`, labels: { route, adapter }, value: sum } as MetricValue<string>);
      samples.push({ metricName: `${name}_count`, labels: { route, adapter }, value: count } as MetricValue<string>);
    }
    return samples;
  }
}
