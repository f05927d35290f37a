// autocannon ships no typings and @types/autocannon is not installed: just the part of the API the bench uses.
declare module 'autocannon' {
  interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
  }

  interface AutocannonOptions {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    timeout?: number;
    headers?: Record<string, string>;
    requests?: AutocannonRequest[];
  }

  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }

  interface AutocannonResult {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram & { sent: number };
  }

  /** The run: a promise of its result, and an emitter of 'start' (clients built, sampling begins). */
  interface AutocannonRun extends Promise<AutocannonResult> {
    once(event: 'start', listener: () => void): this;
  }

  function autocannon(options: AutocannonOptions): AutocannonRun;
  export = autocannon;
}
