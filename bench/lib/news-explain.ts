import 'reflect-metadata';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { NewsRepository } from '../../src/modules/news/news.repository';

/**
 * Where a News request's database time goes: the SQL is taken from NewsRepository itself (a stub data source
 * records the statements a call issues, so the bench explains exactly what the service runs, never a copy
 * that drifts), then run under EXPLAIN (ANALYZE, BUFFERS) on the bench database with the same parameters.
 * A page costs three statements: the page's rows, then their assets and analyses (run together).
 */
export interface Statement {
  sql: string;
  params: unknown[];
}

export interface Explained {
  label: string;
  /** Median of the runs (the first warms the cache, as the load's warm-up did for the server). */
  executionMs: number;
  planningMs: number;
  rows: number;
  /** The top node's buffer line: shared pages found in PostgreSQL's cache (hit) and read from the OS. */
  buffers: string;
  plan: string;
}

const RUNS = 5;

/** The statements a repository call issues, in order (the stub answers every one with no rows). */
export async function statementsOf(call: (repository: NewsRepository) => Promise<unknown>): Promise<Statement[]> {
  const issued: Statement[] = [];
  const stub = { query: async (sql: string, params: unknown[] = []) => (issued.push({ sql, params }), []) };
  await call(new NewsRepository(stub as unknown as DataSource));
  return issued;
}

/** The page statement of a call (its first), the ids it answers, and the two follow-up statements for them. */
export async function pageStatements(db: Client, call: (repository: NewsRepository) => Promise<unknown>): Promise<Array<Statement & { label: string }>> {
  const [page] = await statementsOf(call);
  const { rows } = await db.query(page.sql, page.params);
  const ids = rows.map((r: { id: number }) => Number(r.id));
  const [assets] = await statementsOf((repository) => repository.assetsOf(ids));
  const [analyses] = await statementsOf((repository) => repository.analysesOf(ids, ['en']));
  return [
    { label: `page (${ids.length} rows)`, ...page },
    { label: 'assetsOf', ...(assets ?? { sql: 'SELECT 1', params: [] }) },
    { label: 'analysesOf', ...(analyses ?? { sql: 'SELECT 1', params: [] }) },
  ];
}

export async function explain(db: Client, { label, sql, params }: Statement & { label: string }): Promise<Explained> {
  const runs: Array<Omit<Explained, 'label'>> = [];
  for (let i = 0; i < RUNS; i++) {
    const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
    const lines: string[] = rows.map((r: Record<string, string>) => r['QUERY PLAN']);
    const timing = (name: string) => Number(/([\d.]+) ms/.exec(lines.find((line) => line.startsWith(`${name} Time`)) ?? '')?.[1] ?? NaN);
    const top = /actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/.exec(lines[0]);
    runs.push({
      executionMs: timing('Execution'),
      planningMs: timing('Planning'),
      rows: Number(top?.[1] ?? NaN),
      buffers: (lines.find((line) => line.trim().startsWith('Buffers:')) ?? '').trim().replace(/^Buffers: /, ''),
      plan: lines.join('\n'),
    });
  }
  const sorted = [...runs].sort((a, b) => a.executionMs - b.executionMs);
  return { label, ...sorted[Math.floor(sorted.length / 2)] };
}

/** The statement as a psql user could paste it: parameters inlined as literals. */
export function inlined({ sql, params }: Statement): string {
  const literal = (value: unknown): string => {
    if (value === null || value === undefined) return 'NULL';
    if (typeof value === 'number') return String(value);
    if (value instanceof Date) return `'${value.toISOString()}'`;
    if (Array.isArray(value)) return `ARRAY[${value.map(literal).join(', ')}]`;
    return `'${String(value).replace(/'/g, "''")}'`;
  };
  return sql.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1])).replace(/\s+/g, ' ');
}
