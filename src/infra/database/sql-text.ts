import { DataSource } from 'typeorm';

/** `text` as a literal inside a LIKE / ILIKE pattern: its %, _ and \ match themselves. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The schema pg_trgm is installed in, quoted for SQL, or null where it is not (PGlite has it only when loaded
 * at start-up; a server without contrib lacks it). Asked once per instance; a failed look-up is asked again.
 */
export class TrigramSchema {
  private schema?: Promise<string | null>;

  constructor(private readonly db: DataSource) {}

  get(): Promise<string | null> {
    this.schema ??= this.db
      .query(`SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`)
      .then((rows: Array<{ nspname: string }>) => (rows.length === 0 ? null : `"${rows[0].nspname.replace(/"/g, '""')}"`));
    this.schema.catch(() => (this.schema = undefined));
    return this.schema;
  }
}
