interface Pending<TIn, TOut> {
  input: TIn;
  resolve(value: TOut): void;
  reject(error: unknown): void;
}

/**
 * Gathers the calls made in one turn of the event loop and hands them to `flush` together, up to
 * `maxBatch` at a time. Under load one turn reads many requests, so one store round trip serves them
 * all; alone, a call waits only for the end of its turn (setImmediate runs right after the poll phase
 * that read it). `flush` answers the inputs in order; if it throws, every call of the batch fails.
 */
export class TurnBatcher<TIn, TOut> {
  private pending: Array<Pending<TIn, TOut>> = [];
  private scheduled = false;

  constructor(
    private readonly flush: (inputs: TIn[]) => Promise<TOut[]>,
    private readonly maxBatch: number,
  ) {}

  submit(input: TIn): Promise<TOut> {
    return new Promise<TOut>((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.send();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.endTurn);
      }
    });
  }

  private readonly endTurn = (): void => {
    this.scheduled = false;
    if (this.pending.length > 0) this.send();
  };

  private send(): void {
    const batch = this.pending;
    this.pending = [];
    const inputs = new Array<TIn>(batch.length);
    for (let i = 0; i < batch.length; i++) inputs[i] = batch[i].input;
    let answered: Promise<TOut[]>;
    try {
      answered = this.flush(inputs);
    } catch (error) {
      answered = Promise.reject(error);
    }
    answered.then(
      (outputs) => {
        for (let i = 0; i < batch.length; i++) batch[i].resolve(outputs[i]);
      },
      (error: unknown) => {
        for (const call of batch) call.reject(error);
      },
    );
  }
}
