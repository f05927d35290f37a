/** Rows one pruning DELETE removes at most, so none holds its locks for long. */
export const PRUNE_BATCH = 10_000;

/** Repeats a bounded delete until a batch comes back short (nothing left) or the run is stopped. */
export async function pruneInBatches(prune: (limit: number) => Promise<number>, signal?: AbortSignal): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await prune(PRUNE_BATCH);
    total += n;
    if (n < PRUNE_BATCH || signal?.aborted) return total;
  }
}
