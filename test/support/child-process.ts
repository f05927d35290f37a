import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { TEST_ADAPTER } from './test-env';

/** A port nothing listens on right now, for a server a test spawns. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Settings of the test environment that would steer a spawned process away from the embedded default. */
const NOT_EMBEDDED = ['DATABASE_URL', 'REDIS_URL', 'REDIS_KEY_PREFIX', 'HTTP_HOST', 'HYPERLIQUID_INFO_URL', 'HL_POLL_BATCH', 'HL_SNAPSHOT_INTERVAL_MS'];

/** The embedded default (what `npm run demo` runs on a fresh clone): a data folder, and `extra` on top. */
export function embeddedEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, HTTP_ADAPTER: TEST_ADAPTER, LOG_LEVEL: 'warn', DEBUG: '' };
  for (const name of NOT_EMBEDDED) delete env[name];
  return { ...env, ...extra };
}

const ROOT = join(__dirname, '..', '..');

export interface RunningDemo {
  child: ChildProcess;
  key: string;
  /** The address the demo printed. */
  base: string;
  /** The simulated trader's key, when the demo runs its simulator. */
  traderKey?: string;
}

/**
 * What `npm run demo` runs, started directly so the test owns the server process: resolves once it printed
 * its key and address, on the embedded default under `dataDir`.
 */
export function spawnDemo(dataDir: string, port: number): Promise<RunningDemo> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'scripts/demo.ts'], {
    cwd: ROOT,
    env: embeddedEnv(dataDir, { PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`demo did not print a key in time:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const key = /DEMO_API_KEY=(mdk_[A-Za-z0-9]{32})/.exec(output);
      const base = /Service running at (\S+)/.exec(output);
      // The whole banner, down to its last line (the trader's key, when there is one, comes after the demo key).
      if (key && base && output.includes('Stop with Ctrl+C.')) {
        clearTimeout(timer);
        resolve({ child, key: key[1], base: base[1], traderKey: /DEMO_TRADER_API_KEY=(mdk_[A-Za-z0-9]{32})/.exec(output)?.[1] });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`demo exited with ${code}:\n${output}`)));
  });
}

export interface Spawned {
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr interleaved. */
  output: () => string;
  exited: Promise<number | null>;
}

/** A TypeScript entry point (`src/main.ts`) as its own process, with `env` as its whole environment besides PATH. */
export function spawnTs(entry: string, env: Record<string, string>, args: string[] = []): Spawned {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', entry, ...args], {
    cwd: ROOT,
    // Only what the test sets: the developer's own environment (a DEBUG, a NODE_ENV) must not change the result.
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, output: () => output, exited };
}

/** SIGKILL, for a test's clean-up; nothing when it has already exited. */
export async function killSpawned(spawned: Spawned | undefined): Promise<void> {
  if (!spawned || spawned.child.exitCode !== null || spawned.child.signalCode !== null) return;
  spawned.child.kill('SIGKILL');
  await spawned.exited;
}

/** Polls `check` until it holds, failing after `timeoutMs` (or as soon as `spawned` exits) with its output. */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, spawned?: Spawned): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (spawned && spawned.child.exitCode !== null) throw new Error(`exited before ${what}:\n${spawned.output()}`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}${spawned ? `:\n${spawned.output()}` : ''}`);
}

/** SIGTERM, as an orchestrator stops a server; resolves with the exit code (null when a signal ended it). */
export function stopChild(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

export interface CliRun {
  code: number | null;
  stdout: string[];
  stderr: string;
  /** The one JSON object --json promises on stdout ({} for human-readable output). */
  json: Record<string, any>;
}

/** The real ops command line (`src/cli/main.ts`) to its exit, with `env` as its whole environment. */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/cli/main.ts', ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => {
      const lines = stdout.split('\n').filter((line) => line.length > 0);
      let json: Record<string, any> = {};
      try {
        json = lines.length === 1 ? JSON.parse(lines[0]) : {};
      } catch {
        // Human-readable output; tests that need json assert on it.
      }
      done({ code, stdout: lines, stderr, json });
    });
  });
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run -s simulator -- <args>`, as scripts run it, to its exit; killed after `timeoutMs` (it should print and exit). */
export function runSimulatorCli(args: string[], timeoutMs = 60_000): Promise<Finished> {
  const child = spawn('npm', ['run', '-s', 'simulator', '--', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolveExit, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running after ${timeoutMs / 1000} s (it should print and exit):\n${stdout}${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolveExit({ code, stdout, stderr });
    });
  });
}
