import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UpstreamError } from '../../src/providers/kit/upstream.error';

/** The recorded Hyperliquid responses, in shared/ beside the repository (as on every machine and in CI). */
export const HL_FIXTURES = resolve(__dirname, '../../..', 'shared/fixtures/hyperliquid');

export function hlFixtureText(name: string): string {
  return readFileSync(resolve(HL_FIXTURES, name), 'utf8');
}

// Fixtures are mutated freely by shape tests, so they are read as untyped JSON.
export function hlFixture(name: string): any {
  return JSON.parse(hlFixtureText(name));
}

/** Runs a parser that must refuse its input and returns the shape error it threw. */
export function shapeErrorOf(parse: () => unknown): UpstreamError {
  try {
    parse();
  } catch (err) {
    if (err instanceof UpstreamError && err.kind === 'shape') return err;
    throw err;
  }
  throw new Error('expected a shape error');
}
