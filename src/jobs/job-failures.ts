/** A run names this many of its failures in its outcome; the log has every one. */
export const MAX_NAMED_FAILURES = 20;

/**
 * The failures a job's fan-out caught and went on past: counted, and the first few named, so that the
 * outcome (and `job:run`) says which items failed, not only how many.
 */
export class JobFailures {
  count = 0;
  readonly named: string[] = [];

  /** Records one failure of `what` and answers the line that describes it, for the job's log. */
  add(what: string, error: unknown): string {
    const line = `${what}: ${error instanceof Error ? error.message : String(error)}`;
    this.count += 1;
    if (this.named.length < MAX_NAMED_FAILURES) this.named.push(line);
    return line;
  }
}
