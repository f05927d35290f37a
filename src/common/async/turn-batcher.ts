interface Pending<TIn, TOut> {
  input: TIn;
  resolve(value: TOut): void;
  reject(error: unknown): void;
}

export interface TurnBatcherLimits {
  /** Most calls per flush: a full batch leaves at once. */
  maxBatch: number;
  /**
   * Most flushes awaiting their answer. While that many are out, the calls of the turns that follow
   * wait and leave together as soon as one lands, so the busier the store, the fewer and bigger its
   * batches. Infinity: every turn's calls leave at its end.
   */
  maxInFlight: number;
}

/**
 * Gathers the calls made in one turn of the event loop and hands them to `flush` together. Under load
 * one turn reads many requests, so one store round trip serves them all; alone, a call waits only for
 * the end of its turn (setImmediate runs right after the poll phase that read it). `flush` answers the
 * inputs in order; if it throws, every call of the batch fails.
 */
export class TurnBatcher<TIn, TOut> {
  private pending: Array<Pending<TIn, TOut>> = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(
    private readonly flush: (inputs: TIn[]) => Promise<TOut[]>,
    private readonly limits: TurnBatcherLimits,
  ) {}

  submit(input: TIn): Promise<TOut> {
    return new Promise<TOut>((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      if (this.pending.length >= this.limits.maxBatch) this.send();
      else this.scheduleEndOfTurn();
    });
  }

  private scheduleEndOfTurn(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.endTurn);
  }

  private readonly endTurn = (): void => {
    this.scheduled = false;
    if (this.pending.length > 0 && this.inFlight < this.limits.maxInFlight) this.send();
  };

  /** A flush was answered: calls held back by maxInFlight leave at the end of this turn. */
  private landed(): void {
    this.inFlight -= 1;
    if (this.pending.length > 0) this.scheduleEndOfTurn();
  }

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
    this.inFlight += 1;
    answered.then(
      (outputs) => {
        this.landed();
        for (let i = 0; i < batch.length; i++) batch[i].resolve(outputs[i]);
      },
      (error: unknown) => {
        this.landed();
        for (const call of batch) call.reject(error);
      },
    );
  }
}
