import { createServer } from 'node:net';
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
