import { TurnBatcher } from './turn-batcher';

/** A batcher whose flush doubles its inputs and records every batch it was handed. */
function doubling(maxBatch: number) {
  const batches: number[][] = [];
  const batcher = new TurnBatcher<number, number>(async (inputs) => {
    batches.push(inputs);
    return inputs.map((n) => n * 2);
  }, maxBatch);
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
    expect(batches).toEqual([[0, 1, 2, 3], [4, 5, 6, 7]]);

    expect(await answers).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect(batches).toEqual([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]);
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
    const batcher = new TurnBatcher<number, number>(async (inputs) => {
      if (fail) throw new Error('store down');
      return inputs;
    }, 16);

    const failed = [1, 2].map((n) => batcher.submit(n));
    await expect(Promise.all(failed)).rejects.toThrow('store down');
    await expect(failed[1]).rejects.toThrow('store down');
    fail = false;

    expect(await batcher.submit(3)).toBe(3);
  });

  it('fails the batch when flush throws before it returns a promise', async () => {
    const batcher = new TurnBatcher<number, number>(() => {
      throw new Error('bad input');
    }, 16);

    await expect(batcher.submit(1)).rejects.toThrow('bad input');
  });
});
