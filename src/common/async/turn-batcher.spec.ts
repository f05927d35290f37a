import { TurnBatcher } from './turn-batcher';

/** A batcher whose flush doubles its inputs and records every batch it was handed. */
function doubling(maxBatch: number) {
  const batches: number[][] = [];
  const batcher = new TurnBatcher<number, number>(
    async (inputs) => {
      batches.push(inputs);
      return inputs.map((n) => n * 2);
    },
    { maxBatch, maxInFlight: Infinity },
  );
  return { batcher, batches };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('TurnBatcher', () => {
  it('hands the calls of one turn to one flush, in order, and answers each with its own output', async () => {
    const { batcher, batches } = doubling(16);

    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.submit(n)));

    expect(answers).toEqual([2, 4, 6, 8, 10]);
    expect(batches).toEqual([[1, 2, 3, 4, 5]]);
  });

  it('sends a full batch at once and the rest at the end of the turn', async () => {
    const { batcher, batches } = doubling(4);

    const answers = Promise.all(Array.from({ length: 10 }, (_, i) => batcher.submit(i)));
    // The two full batches left during the turn; the last two wait for its end.
    expect(batches).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
    ]);

    expect(await answers).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect(batches).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9],
    ]);
  });

  it('answers a lone call at the end of its turn, and starts a new batch in the next turn', async () => {
    const { batcher, batches } = doubling(16);

    expect(await batcher.submit(7)).toBe(14);
    await nextTurn();
    expect(await batcher.submit(8)).toBe(16);

    expect(batches).toEqual([[7], [8]]);
  });

  it('fails every call of a batch whose flush fails, and only those', async () => {
    let fail = true;
    const batcher = new TurnBatcher<number, number>(
      async (inputs) => {
        if (fail) throw new Error('store down');
        return inputs;
      },
      { maxBatch: 16, maxInFlight: Infinity },
    );

    const failed = [1, 2].map((n) => batcher.submit(n));
    await expect(Promise.all(failed)).rejects.toThrow('store down');
    await expect(failed[1]).rejects.toThrow('store down');
    fail = false;

    expect(await batcher.submit(3)).toBe(3);
  });

  it('fails the batch when flush throws before it returns a promise', async () => {
    const batcher = new TurnBatcher<number, number>(
      () => {
        throw new Error('bad input');
      },
      { maxBatch: 16, maxInFlight: Infinity },
    );

    await expect(batcher.submit(1)).rejects.toThrow('bad input');
  });

  describe('with flushes in flight', () => {
    /** A batcher whose flushes stay unanswered until the test lands them. */
    function held(maxInFlight: number) {
      const batches: number[][] = [];
      const landings: Array<{ land(): void; fail(): void }> = [];
      const batcher = new TurnBatcher<number, number>(
        (inputs) =>
          new Promise((resolve, reject) => {
            batches.push(inputs);
            landings.push({ land: () => resolve(inputs.map((n) => n * 10)), fail: () => reject(new Error('store down')) });
          }),
        { maxBatch: 16, maxInFlight },
      );
      return { batcher, batches, land: (i: number) => landings[i].land(), fail: (i: number) => landings[i].fail() };
    }

    it('holds the calls of later turns while maxInFlight flushes are out, and sends them together once one lands', async () => {
      const { batcher, batches, land } = held(1);

      const first = batcher.submit(1);
      await nextTurn();
      const later = [batcher.submit(2), batcher.submit(3)];
      await nextTurn();
      const last = batcher.submit(4);
      await nextTurn();
      // Three turns, but only the first turn's call has left: the others wait for its answer.
      expect(batches).toEqual([[1]]);

      land(0);
      expect(await first).toBe(10);
      await nextTurn();
      expect(batches).toEqual([[1], [2, 3, 4]]);
      land(1);
      expect(await Promise.all([...later, last])).toEqual([20, 30, 40]);
    });

    it('still sends a full batch at once', async () => {
      const { batcher, batches } = held(1);

      void batcher.submit(0);
      await nextTurn();
      for (let i = 1; i <= 16; i++) void batcher.submit(i);

      expect(batches).toHaveLength(2);
      expect(batches[1]).toHaveLength(16);
    });

    it('sends the next turn as usual while fewer than maxInFlight flushes are out', async () => {
      const { batcher, batches } = held(2);

      void batcher.submit(1);
      await nextTurn();
      void batcher.submit(2);
      await nextTurn();
      void batcher.submit(3);
      await nextTurn();

      expect(batches).toEqual([[1], [2]]);
    });

    it('lets held calls leave after a flush that failed', async () => {
      const { batcher, batches, land, fail } = held(1);

      const failed = batcher.submit(1);
      await nextTurn();
      const waiting = batcher.submit(2);
      await nextTurn();
      expect(batches).toEqual([[1]]);

      fail(0);
      await expect(failed).rejects.toThrow('store down');
      await nextTurn();
      expect(batches).toEqual([[1], [2]]);
      land(1);
      expect(await waiting).toBe(20);
    });
  });
});
