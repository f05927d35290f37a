/**
 * Runs `work` over `items` with at most `limit` in flight. Each item's failure is caught and reported
 * through `onError` so one bad item never stops the fan-out; returns how many failed.
 */
export async function mapLimit<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
  { onError, signal }: { onError?: (item: T, error: unknown) => void; signal?: AbortSignal } = {},
): Promise<number> {
  let next = 0;
  let failures = 0;
  const worker = async () => {
    while (next < items.length && !signal?.aborted) {
      const item = items[next++];
      try {
        await work(item);
      } catch (error) {
        failures += 1;
        onError?.(item, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return failures;
}
