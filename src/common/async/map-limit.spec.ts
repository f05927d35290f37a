import { abortError } from './abort';
import { mapLimit } from './map-limit';

describe(mapLimit.name, () => {
  it('keeps going past a failing item, reports it and counts it', async () => {
    const done: number[] = [];
    const reported: number[] = [];
    const sut = await mapLimit(
      [1, 2, 3, 4],
      2,
      async (n) => {
        if (n === 2) throw new Error('bad item');
        done.push(n);
      },
      { onError: (n) => reported.push(n) },
    );
    expect(sut).toBe(1);
    expect(reported).toEqual([2]);
    expect(done.sort()).toEqual([1, 3, 4]);
  });

  it('stops on an abort without reporting the items it cut short, and rejects with the abort', async () => {
    const controller = new AbortController();
    const reason = abortError('shutting down');
    const reported: number[] = [];
    const started: number[] = [];
    const sut = mapLimit(
      Array.from({ length: 100 }, (_, i) => i),
      4,
      async (n) => {
        started.push(n);
        await new Promise((_resolve, reject) => controller.signal.addEventListener('abort', () => reject(new Error(`item ${n} cut short`))));
      },
      { signal: controller.signal, onError: (n) => reported.push(n) },
    );
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort(reason);

    await expect(sut).rejects.toBe(reason);
    expect(started).toHaveLength(4);
    expect(reported).toEqual([]);
  });

  it('treats an item that ends with an abort as a stop even before its own signal says so', async () => {
    const reported: number[] = [];
    const stoppedUpstream = abortError('upstream client stopping');
    const sut = mapLimit(
      [1, 2, 3],
      1,
      async (n) => {
        if (n === 1) throw stoppedUpstream;
      },
      { signal: new AbortController().signal, onError: (n) => reported.push(n) },
    );
    await expect(sut).rejects.toBe(stoppedUpstream);
    expect(reported).toEqual([]);
  });
});
