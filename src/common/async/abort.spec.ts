import { getEventListeners } from 'node:events';
import { abortableDelay, abortError, isAbortError, onAbort } from './abort';

describe(abortableDelay.name, () => {
  it('resolves after the delay and leaves no callback behind', async () => {
    const controller = new AbortController();
    await abortableDelay(5, controller.signal);
    let called = false;
    onAbort(controller.signal, () => (called = true));
    controller.abort();
    expect(called).toBe(true);
  });

  it('keeps one listener on the signal however many wait, and rejects every waiter with its reason', async () => {
    const controller = new AbortController();
    const sut = Array.from({ length: 50 }, () => abortableDelay(60_000, controller.signal));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    const reason = abortError('shutting down');
    controller.abort(reason);
    const settled = await Promise.allSettled(sut);
    expect(settled.every((s) => s.status === 'rejected' && s.reason === reason)).toBe(true);
  });

  it('rejects at once on a signal that already aborted', async () => {
    await expect(abortableDelay(60_000, AbortSignal.abort(abortError('stopped')))).rejects.toThrow('stopped');
  });
});

describe(isAbortError.name, () => {
  it('tells an abort from a failure by the platform name', () => {
    expect(isAbortError(abortError('stopped'))).toBe(true);
    expect(isAbortError(new DOMException('x', 'AbortError'))).toBe(true);
    expect(isAbortError(new Error('boom'))).toBe(false);
    expect(isAbortError('AbortError')).toBe(false);
  });
});
