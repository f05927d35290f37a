import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

// See register.js for why the servers do not run under ts-node.
const TS_HOOK = join(__dirname, 'register.js');
// Extra node flags for the servers only, e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=bench/results".
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
// The service runs with the node flags it is deployed with (package.json config.nodeFlags, used by
// start:prod and the Dockerfile); the reference servers run with node's defaults.
const SERVICE_SCRIPTS = new Set(['bench/servers/app.server.ts', 'bench/servers/hl-build.ts']);

/** The flags of the checkout a server is started from (the working directory): bench:ab's sides may differ. */
function serviceNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { config: { nodeFlags: string } };
  return pkg.config.nodeFlags.split(' ').filter(Boolean);
}
// A failed TypeORM query is logged with all its parameters (a ledger batch is >100 kB on one line).
const MAX_LINE = 400;
const clip = (line: string) => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}... (${line.length} chars)` : line);

export interface ServerHandle {
  name: string;
  pid: number;
  /** The JSON the server printed after `BENCH_READY ` (port, and for app servers its keys and wallets). */
  ready: { port: number; keys?: string[]; wallets?: string[] };
  stop(): Promise<void>;
}

// Every server this process started, so an error or Ctrl-C never leaves one running.
const live = new Set<ChildProcess>();

/** SIGKILL each child still alive, by its own pid; synchronous so it also works from an 'exit' handler. */
export function killAll(): void {
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  live.clear();
}

/**
 * Starts the TypeScript `script` (transpiled on load, no type-check) pinned to `core` with taskset, which
 * execs node in place, so the pid we hold is the server's. Resolves once the server printed its
 * READY line, i.e. after migrations, seeding and listen, so no load is ever sent to a half-started app.
 */
export function startServer(name: string, script: string, core: number, env: NodeJS.ProcessEnv, timeoutMs = 180_000): Promise<ServerHandle> {
  const flags = [...(SERVICE_SCRIPTS.has(script) ? serviceNodeFlags() : []), ...NODE_ARGS];
  const child = spawn('taskset', ['-c', String(core), process.execPath, ...flags, '-r', TS_HOOK, script], {
    cwd: process.cwd(),
    // The load generator primes its many keys concurrently from one address: the unknown-key limiter would
    // take those first lookups for a flood of guesses (each bench may still set its own value).
    env: { ...process.env, API_KEY_FAILED_LOOKUPS_PER_MINUTE: '100000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const recentErr: string[] = [];

  createInterface({ input: child.stderr! }).on('line', (line) => {
    recentErr.push(line);
    if (recentErr.length > 40) recentErr.shift();
    process.stderr.write(`  [${name}] ${clip(line)}\n`);
  });

  return new Promise<ServerHandle>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${name}: no READY line within ${timeoutMs / 1000} s`)), timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.once('error', (error) => fail(new Error(`${name}: could not spawn (${error.message})`)));
    const onEarlyExit = (code: number | null, signal: NodeJS.Signals | null) => {
      // The lines that say what went wrong, not the end of a stack trace or of an error object dump.
      const telling = recentErr.filter((l) => /error|fail|refused|denied|cannot|unable/i.test(l) && !/^\s+at /.test(l));
      const tail = (telling.length > 0 ? telling.slice(-4) : recentErr.slice(-8)).map(clip).join('\n    ');
      fail(new Error(`${name} exited before READY (code ${code}, signal ${signal})${tail ? `; last stderr:\n    ${tail}` : ''}`));
    };
    child.once('exit', onEarlyExit);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('BENCH_READY ')) {
        process.stderr.write(`  [${name}] ${clip(line)}\n`);
        return;
      }
      clearTimeout(timer);
      child.removeListener('exit', onEarlyExit);
      const ready = JSON.parse(line.slice('BENCH_READY '.length)) as ServerHandle['ready'];
      resolve({ name, pid: child.pid!, ready, stop: () => stop(child, exited) });
    });
  });
}

/** SIGTERM lets the app run its shutdown hooks (commit holds, final ledger flush); SIGKILL after 20 s. */
async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
  live.delete(child);
}

/**
 * Runs `benchFile` again as the load generator, pinned to `core` (default 1; the server takes core 0), with
 * BENCH_LOADGEN=1 so the bench knows it is that child; signals pass through and its exit code is ours.
 */
export function relaunchPinned(benchFile: string, core = 1): void {
  const pinned = cpus().length >= 2;
  if (!pinned) process.stderr.write('WARNING: fewer than 2 cores; server and load generator are not pinned apart.\n');
  const node = [process.execPath, '-r', join(__dirname, 'register.js'), benchFile];
  const [command, ...args] = pinned ? ['taskset', '-c', String(core), ...node] : node;
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, BENCH_LOADGEN: '1' } });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
