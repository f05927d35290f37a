import { ENTITIES } from '../../../src/app-entities';
import { createDataSource } from '../../../src/infra/database/data-source';

/**
 * `node -r ts-node/register/transpile-only test/support/faults/embedded-query.ts <data dir> <queries JSON> [concurrent]`:
 * runs `[{ sql, params }]` on the embedded database of a stopped server (one after another, or all at once
 * with `concurrent`) and prints their rows as one JSON array. A process of its own: PGlite loads by dynamic
 * import, which jest's module system refuses.
 */
async function main(): Promise<void> {
  const [dataDir, queries, mode] = process.argv.slice(2);
  const db = await createDataSource({ database: { dataDir, migrationsRun: false } }, ENTITIES).initialize();
  try {
    const list = JSON.parse(queries) as Array<{ sql: string; params: unknown[] }>;
    const results: unknown[] = [];
    if (mode === 'concurrent') results.push(...(await Promise.all(list.map(({ sql, params }) => db.query(sql, params)))));
    else for (const { sql, params } of list) results.push(await db.query(sql, params));
    process.stdout.write(JSON.stringify(results));
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
