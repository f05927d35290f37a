import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The recorded upstream responses, in shared/ beside the repository (as on every machine and in CI), one folder per vendor. */
export const FIXTURES_ROOT = resolve(__dirname, '../../..', 'shared/fixtures');

export function vendorFixtureText(vendor: string, name: string): string {
  return readFileSync(resolve(FIXTURES_ROOT, vendor, name), 'utf8');
}

// Fixtures are mutated freely by shape tests, so they are read as untyped JSON.
export function vendorFixture(vendor: string, name: string): any {
  return JSON.parse(vendorFixtureText(vendor, name));
}
