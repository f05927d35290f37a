/**
 * What makes every state-changing billing script safe to run twice. The client never re-sends a command
 * on its own (RedisKvStore), but a command whose reply was lost may have run or not, and only running it
 * again tells: so each admission batch has an id, its scripts keep their reply under that id and answer a
 * second run with it, and a batch given up on is marked so that a late run of it does nothing. A void
 * (refund) is kept under its request id the same way, so retrying one until it lands gives credits back once.
 */
export const AdmissionRecordKeys = {
  /** The reply of an admission batch's fast script, or ABANDONED. */
  batch: (batchId: string) => `adm:${batchId}`,
  /** The reply of the full script for call `index` of a batch, or ABANDONED. */
  call: (batchId: string, index: number) => `adm:${batchId}:${index}`,
  /** Set by the first run of a call's void. */
  void: (requestId: string) => `void:${requestId}`,
  /**
   * Written once into a KV store that holds billing state: a store found without it is new or lost its
   * data, and the first seed from PostgreSQL then fences off ledger drains that started before (CreditSeeds).
   */
  generation: 'billing:generation',
} as const;

/** ADMIT_FAST_SCRIPT's reply slots per call (status, count, balance), as its record keeps them. */
export const FAST_REPLY = 3;
/** ADMIT_FAST_SCRIPT's status for a call it left to the full script (ADMIT_SCRIPT). */
export const NEEDS_FULL_ADMIT = 3;

/** The record a batch given up on leaves, so that a late run of it (a command still queued) admits nothing. */
export const ABANDONED = 'abandoned';

/**
 * How long a batch's reply is kept: longer than any command can wait in the client before it is sent or
 * rejected (commandTimeout, and at most a few reconnect attempts), and long enough that the give-up of a
 * batch stuck behind a Redis restart still finds what the batch did.
 */
export const ADMISSION_RECORD_TTL_MS = 5 * 60_000;
/** How long a void is remembered: a refund is retried until it lands, for at most this long. */
export const VOID_RECORD_TTL_MS = 60 * 60_000;
