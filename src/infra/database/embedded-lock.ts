import { chmodSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type EmbeddedLockOwner = 'server' | 'cli';

export interface EmbeddedLock {
  release(): void;
}

export const EMBEDDED_LOCK_FILE = 'embedded.lock';

/** Thrown when another live process holds the embedded data folder. */
export class EmbeddedLockError extends Error {
  constructor(
    message: string,
    /** Set when the holder is a live server that advertised its ops endpoint (advertiseEmbeddedServer). */
    readonly server?: EmbeddedServerEndpoint,
  ) {
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
      writeFileSync(path, content, { flag: 'wx', mode: 0o600 });
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
          holder?.owner === 'server' && holder.server && isAlive(holder.pid) ? holder.server : undefined,
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

/** Where a server holding the lock answers its ops routes (GET /ops/jobs), and the token they require. */
export interface EmbeddedServerEndpoint {
  host: string;
  port: number;
  opsToken: string;
}

interface LockHolder {
  pid: number;
  owner?: string;
  server?: EmbeddedServerEndpoint;
}

/**
 * A server holding the lock adds where it listens and its per-run ops token, so `npm run cli -- job:status`
 * can ask it instead of opening the folder. The file is rewritten owner-only (0600): the token is a secret.
 * Does nothing unless this process holds the lock.
 */
export function advertiseEmbeddedServer(dataDir: string, server: EmbeddedServerEndpoint): boolean {
  const path = join(dataDir, EMBEDDED_LOCK_FILE);
  const holder = readHolder(path);
  if (holder?.pid !== process.pid) return false;
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ ...raw, server })}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  // A rename replaces the file in one step: a reader never sees it half written or without its owner's pid.
  renameSync(temp, path);
  return true;
}

function readHolder(path: string): LockHolder | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(text) as { pid?: unknown; owner?: unknown; server?: unknown };
    if (Number.isInteger(parsed.pid)) {
      return { pid: parsed.pid as number, owner: typeof parsed.owner === 'string' ? parsed.owner : undefined, server: endpointOf(parsed.server) };
    }
  } catch {
    // A bare pid is accepted too, so an operator can write one by hand.
  }
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? { pid } : null;
}

function endpointOf(value: unknown): EmbeddedServerEndpoint | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { host, port, opsToken } = value as Record<string, unknown>;
  if (typeof host !== 'string' || !Number.isInteger(port) || typeof opsToken !== 'string') return undefined;
  return { host, port: port as number, opsToken };
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
