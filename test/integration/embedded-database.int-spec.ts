import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
/** More query runners at once than Node's default of 10 listeners per emitter. */
const CONCURRENT_QUERIES = 24;

/** embedded-query.ts in a process of its own (PGlite will not load under jest), to its exit. */
function embeddedQueries(
  dataDir: string,
  queries: Array<{ sql: string; params: unknown[] }>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const entry = join(ROOT, 'test', 'support', 'faults', 'embedded-query.ts');
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', entry, dataDir, JSON.stringify(queries), 'concurrent'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the embedded database (PGlite) under concurrent queries', () => {
  let dataDir: string;
  beforeAll(() => (dataDir = mkdtempSync(join(tmpdir(), 'embedded-db-'))));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('answers each of many concurrent queries without a MaxListenersExceededWarning', async () => {
    const queries = Array.from({ length: CONCURRENT_QUERIES }, (_, i) => ({ sql: 'SELECT $1::int AS n', params: [i] }));

    const run = await embeddedQueries(dataDir, queries);

    expect(run.stderr).not.toContain('MaxListenersExceededWarning');
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as Array<Array<{ n: number }>>).map(([row]) => row.n)).toEqual(queries.map(({ params }) => params[0]));
  });
});
