import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';
import { DEV_CURSOR_SECRET, DEV_JWT_SECRET, productionSecretProblem } from './production-secrets';

const ROOT = resolve(__dirname, '../..');
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', 'coverage', 'data', 'test-artifacts']);
const TEXT_FILES = new Set(['.ts', '.js', '.mjs', '.cjs', '.json', '.yml', '.yaml', '.md', '.sh', '.example', '.html']);
/** A string literal given to a name with "secret" in it: `JWT_SECRET: '...'`, `const SECRET = "..."`, `{ secret: '...' }`. */
const ASSIGNED_LITERAL = /\w*secret\w*['"]?\s*[:=]\s*(['"`])([^'"`\n]+)\1/gi;
/** An env-file line: `JWT_SECRET=value` (a `$(...)` or `${...}` is computed, not shipped). */
const ENV_LINE = /^\s*(?:export\s+)?\w*SECRET\w*=([^\s#$'"]+)/gm;

function* repositoryFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) yield* repositoryFiles(join(dir, entry.name));
    } else if (TEXT_FILES.has(extname(entry.name)) || entry.name === 'Dockerfile') {
      yield join(dir, entry.name);
    }
  }
}

/** Every secret-looking literal in the repository, with where it is. */
function shippedSecretValues(): { value: string; where: string }[] {
  const found: { value: string; where: string }[] = [];
  for (const file of repositoryFiles(ROOT)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(ASSIGNED_LITERAL)) found.push({ value: match[2], where: relative(ROOT, file) });
    for (const match of text.matchAll(ENV_LINE)) found.push({ value: match[1], where: relative(ROOT, file) });
  }
  return found;
}

describe(productionSecretProblem.name, () => {
  it('refuses in production every secret value that ships in the repository, .env.example included', () => {
    const shipped = shippedSecretValues();
    expect(shipped.map((s) => s.value)).toEqual(expect.arrayContaining([DEV_CURSOR_SECRET, DEV_JWT_SECRET]));
    const accepted = shipped.filter(({ value }) => productionSecretProblem('SECRET', value) === undefined);
    expect(accepted).toEqual([]);
  });

  it('accepts what `openssl rand -base64 48` makes', () => {
    expect(productionSecretProblem('JWT_SECRET', randomBytes(48).toString('base64'))).toBeUndefined();
  });
});
