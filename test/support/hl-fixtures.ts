import { resolve } from 'node:path';
import { UpstreamError } from '../../src/providers/kit/upstream.error';
import { FIXTURES_ROOT, vendorFixture, vendorFixtureText } from './vendor-fixtures';

/** The recorded Hyperliquid responses. */
export const HL_FIXTURES = resolve(FIXTURES_ROOT, 'hyperliquid');

export function hlFixtureText(name: string): string {
  return vendorFixtureText('hyperliquid', name);
}

export function hlFixture(name: string): any {
  return vendorFixture('hyperliquid', name);
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
