import { resolve } from 'node:path';
import { FIXTURES_ROOT, vendorFixture, vendorFixtureText } from './vendor-fixtures';

/** The recorded Hyperliquid responses. */
export const HL_FIXTURES = resolve(FIXTURES_ROOT, 'hyperliquid');

export function hlFixtureText(name: string): string {
  return vendorFixtureText('hyperliquid', name);
}

export function hlFixture(name: string): any {
  return vendorFixture('hyperliquid', name);
}
