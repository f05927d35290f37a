import { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMBEDDED_LOCK_FILE } from '../../src/infra/database/embedded-lock';
import { freePort, spawnDemo, stopChild } from '../support/child-process';

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
    if (child) await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('starts from nothing, serves the printed demo key, and keeps its data across a restart', async () => {
    const first = await spawnDemo(dataDir, port);
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
    expect(await stopChild(child)).toBe(0);
    expect(existsSync(join(dataDir, EMBEDDED_LOCK_FILE))).toBe(false);

    const second = await spawnDemo(dataDir, port);
    child = second.child;
    expect(second.key).not.toBe(first.key);
    // The first run's key was persisted by embedded PostgreSQL, so it still authenticates.
    const again = await getJson(`${base}/api/public/v1/account/credits`, first.key);
    expect(again.status).toBe(200);
  }, 150_000);
});
