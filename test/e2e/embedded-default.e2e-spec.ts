import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMBEDDED_LOCK_FILE } from '../../src/infra/database/embedded-lock';
import { embeddedEnv, freePort } from '../support/child-process';

const ROOT = join(__dirname, '..', '..');

/** Runs the README's quick-start command with nothing configured but a data folder and a port. */
function startDemo(dataDir: string, port: number): Promise<{ child: ChildProcess; key: string }> {
  const env = embeddedEnv(dataDir, { PORT: String(port) });
  // What `npm run demo` runs, started directly so the test owns the server process itself.
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'scripts/demo.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`demo did not print a key in time:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /DEMO_API_KEY=(mdk_[A-Za-z0-9]{32})/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, key: match[1] });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`demo exited with ${code}:\n${output}`)));
  });
}

/** SIGTERM, as an orchestrator stops it; resolves with the exit code (null when a signal ended it). */
function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

async function getJson(url: string, key?: string) {
  const res = await fetch(url, { headers: key ? { 'x-api-key': key } : {} });
  return { status: res.status, body: (await res.json()) as { data: Record<string, any> } };
}

describe('Embedded default (no DATABASE_URL, no REDIS_URL)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mdapi-embedded-'));
  let port: number;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    port = await freePort();
  });
  afterAll(async () => {
    if (child) await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('starts from nothing, serves the printed demo key, and keeps its data across a restart', async () => {
    const first = await startDemo(dataDir, port);
    child = first.child;
    const base = `http://127.0.0.1:${port}`;
    const ready = await getJson(`${base}/health/ready`);
    expect(ready.status).toBe(200);
    expect(ready.body.data.checks.kv).toEqual({ status: 'up', kind: 'memory' });
    const account = await getJson(`${base}/api/public/v1/account`, first.key);
    expect(account.status).toBe(200);
    expect(account.body.data).toMatchObject({ tier: 'Pro', walletAddress: '0xde00000000000000000000000000000000000001' });
    expect(existsSync(join(dataDir, EMBEDDED_LOCK_FILE))).toBe(true);
    // A graceful stop ends with a clean exit that takes the lock file with it.
    expect(await stop(child)).toBe(0);
    expect(existsSync(join(dataDir, EMBEDDED_LOCK_FILE))).toBe(false);

    const second = await startDemo(dataDir, port);
    child = second.child;
    expect(second.key).not.toBe(first.key);
    // The first run's key was persisted by embedded PostgreSQL, so it still authenticates.
    const again = await getJson(`${base}/api/public/v1/account/credits`, first.key);
    expect(again.status).toBe(200);
  }, 150_000);
});
