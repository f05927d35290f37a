import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type EmbeddedLockOwner = 'server' | 'cli';

export interface EmbeddedLock {
  release(): void;
}

export const EMBEDDED_LOCK_FILE = 'embedded.lock';

/** Thrown when another live process holds the embedded data folder. */
export class EmbeddedLockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedLockError';
  }
}

/**
 * PGlite is single-process: two processes opening the same data folder corrupt it. The lock file holds the
 * pid of the process that has the folder open; a lock whose process is gone is stale and replaced.
 */
export function acquireEmbeddedLock(dataDir: string, owner: EmbeddedLockOwner): EmbeddedLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, EMBEDDED_LOCK_FILE);
  const content = `${JSON.stringify({ pid: process.pid, owner, startedAt: new Date().toISOString() })}\n`;
  // Two attempts: a stale lock is removed once, and losing that race to another starter is a real conflict.
  for (let attempt = 0; ; attempt += 1) {
    try {
      writeFileSync(path, content, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(path);
      if (attempt > 0 || (holder && isAlive(holder.pid))) {
        const who = holder ? `${holder.owner ?? 'another process'} (pid ${holder.pid})` : 'another process';
        const remedy = holder?.owner === 'cli' ? 'wait for that ops command to finish' : 'stop the server first';
        throw new EmbeddedLockError(
          `the embedded database in ${dataDir} is in use by ${who}; ${remedy}, or set DATABASE_URL to use ` +
            `PostgreSQL (if no such process runs, delete ${path})`,
        );
      }
      removeIfExists(path);
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    // Never delete a lock another process took over after ours was judged stale.
    if (readHolder(path)?.pid === process.pid) removeIfExists(path);
  };
  process.on('exit', release);
  return { release };
}

function readHolder(path: string): { pid: number; owner?: string } | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(text) as { pid?: unknown; owner?: unknown };
    if (Number.isInteger(parsed.pid)) return { pid: parsed.pid as number, owner: typeof parsed.owner === 'string' ? parsed.owner : undefined };
  } catch {
    // A bare pid is accepted too, so an operator can write one by hand.
  }
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? { pid } : null;
}

function isAlive(pid: number): boolean {
  // Our own pid in the file is a leftover of an earlier run that had the same pid (pid 1 in a container).
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function removeIfExists(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
