/**
 * Whether `error` is an abort (the caller stopped waiting: a job run or the whole process stopping) rather
 * than a failure of the work. By the platform's convention an abort is named 'AbortError' (fetch and
 * node's timers reject with one), so code that knows no provider can tell a stop from a failure.
 */
export function isAbortError(error: unknown): boolean {
  // By name, not instanceof: a DOMException is not an Error in every realm.
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

/** An Error named as the platform names an abort, for the reason of an AbortController.abort(). */
export function abortError(message: string): Error {
  const error = new Error(message);
  error.name = 'AbortError';
  return error;
}

const callbacksBySignal = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `callback` once `signal` aborts; returns the unsubscribe function. However many callers wait on one
 * signal, it carries a single 'abort' listener: a fan-out of reads all waiting on the process-wide stop
 * signal (for the next weight window, for a retry) would otherwise add a listener each, and past ten
 * node warns of a leak (MaxListenersExceededWarning) with reason.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let callbacks = callbacksBySignal.get(signal);
  if (!callbacks) {
    const created = new Set<() => void>();
    signal.addEventListener(
      'abort',
      () => {
        for (const call of [...created]) call();
        created.clear();
      },
      { once: true },
    );
    callbacksBySignal.set(signal, created);
    callbacks = created;
  }
  const registered = callbacks;
  registered.add(callback);
  return () => registered.delete(callback);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts (at once if it already has). */
export function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  if (!signal) return new Promise((resolve) => setTimeout(resolve, ms));
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      resolve();
    }, ms);
    const unsubscribe = onAbort(signal, () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}
