import { isAbortError } from './abort';

/**
 * Runs `work` over `items` with at most `limit` in flight. Each item's failure is caught and reported
 * through `onError` so one bad item never stops the fan-out; returns how many failed.
 *
 * A stop is not a failure: once `signal` aborts (or an item ends with an abort, isAbortError) no further
 * item starts, the items cut short are neither reported nor counted, and mapLimit rejects with the abort
 * once those in flight have settled, so the caller never goes on to save a half-read round.
 */
export async function mapLimit<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
  { onError, signal }: { onError?: (item: T, error: unknown) => void; signal?: AbortSignal } = {},
): Promise<number> {
  let next = 0;
  let failures = 0;
  let abort: { reason: unknown } | undefined;
  const stopped = () => abort !== undefined || signal?.aborted === true;
  const worker = async () => {
    while (next < items.length && !stopped()) {
      const item = items[next++];
      try {
        await work(item);
      } catch (error) {
        if (stopped() || isAbortError(error)) {
          abort ??= { reason: signal?.aborted ? signal.reason : error };
          continue;
        }
        failures += 1;
        onError?.(item, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (signal?.aborted) throw signal.reason;
  if (abort) throw abort.reason;
  return failures;
}
