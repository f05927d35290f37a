import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UpstreamError } from '../../src/providers/kit/upstream.error';

/** The recorded upstream responses, in shared/ beside the repository (as on every machine and in CI), one folder per vendor. */
export const FIXTURES_ROOT = resolve(__dirname, '../../..', 'shared/fixtures');

export function vendorFixtureText(vendor: string, name: string): string {
  return readFileSync(resolve(FIXTURES_ROOT, vendor, name), 'utf8');
}

// Fixtures are mutated freely by shape tests, so they are read as untyped JSON.
export function vendorFixture(vendor: string, name: string): any {
  return JSON.parse(vendorFixtureText(vendor, name));
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
