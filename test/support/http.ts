import request from 'supertest';
import { TestApp } from './create-test-app';

export const PUBLIC = '/api/public/v1';

/** GET a public route with a key (or none). */
export function get(t: TestApp, path: string, key?: string) {
  const req = request(t.server as Parameters<typeof request>[0]).get(`${PUBLIC}${path}`);
  return key === undefined ? req : req.set('x-api-key', key);
}

/** Fixed windows reset at the top of the minute; start bursts early in a window so one burst stays in one. */
export async function waitForFreshWindow(minSecondsLeft = 20): Promise<void> {
  const secondsLeft = 60 - ((Date.now() / 1000) % 60);
  if (secondsLeft < minSecondsLeft) await new Promise((resolve) => setTimeout(resolve, secondsLeft * 1000 + 50));
}

export async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
