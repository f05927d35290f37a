import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const SRC = resolve(__dirname, '../..');
const BILLING = resolve(__dirname);
/** What code outside billing may import of it: the public face, and the module for AppModule to wire. */
const ALLOWED = new Set(['billing.public', 'billing.module']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Every billing file a source file outside billing imports, as `importer -> billing/<file>`. */
function importsIntoBilling(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(SRC)) {
    if (file.startsWith(BILLING)) continue;
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const target = resolve(join(file, '..'), specifier);
      if (target.startsWith(`${BILLING}/`)) found.push(`${relative(SRC, file)} -> billing/${relative(BILLING, target)}`);
    }
  }
  return found;
}

describe('the billing module boundary', () => {
  it('is crossed only through billing.public.ts (and billing.module.ts, to wire the module)', () => {
    const found = importsIntoBilling();

    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((entry) => !ALLOWED.has(entry.split('billing/')[1]))).toEqual([]);
  });
});
