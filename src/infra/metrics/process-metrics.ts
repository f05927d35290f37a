import { collectDefaultMetrics } from 'prom-client';
import { METRICS_REGISTRY } from './metrics';

let collecting = false;

/**
 * prom-client's process series (CPU, memory, event-loop lag, GC) in the registry /metrics serves. Once per
 * process: tests start many apps in one, and the series are the process's, not an app's.
 */
export function collectProcessMetrics(): void {
  if (collecting) return;
  collecting = true;
  collectDefaultMetrics({ register: METRICS_REGISTRY });
}
