import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { QUERY_TEXT_MAX_CHARS, TypeOrmQueryLogger } from './typeorm-query.logger';
import { buildDataSourceOptions } from './data-source';

const WALLETS = Array.from({ length: 90 }, (_, i) => `0x${String(i).padStart(40, 'a')}`);

function capture() {
  const lines: string[] = [];
  const logger = { error: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), debug: (m: string) => lines.push(m) } as unknown as Logger;
  return { lines, logger };
}

describe(TypeOrmQueryLogger.name, () => {
  it('logs a failed query as one line with the error and the statement, never its parameters', () => {
    const { lines, logger } = capture();
    const sut = new TypeOrmQueryLogger(logger);
    const query = `UPDATE hl_addresses a SET polled_at = now()
      FROM jsonb_to_recordset($1::jsonb) AS v(address text) WHERE a.address = v.address`;

    sut.logQueryError(new Error('deadlock detected'), query, [JSON.stringify(WALLETS.map((address) => ({ address }))), 5000]);

    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('deadlock detected');
    expect(lines[0]).toContain('UPDATE hl_addresses a SET polled_at = now() FROM jsonb_to_recordset');
    expect(lines[0]).toContain('2 parameters not logged');
    for (const wallet of WALLETS) expect(lines[0]).not.toContain(wallet);
    expect(lines[0]).not.toContain('5000');
    expect(lines[0]).not.toContain('\n');
  });

  it('cuts a long statement short', () => {
    const { lines, logger } = capture();
    const sut = new TypeOrmQueryLogger(logger);
    const query = `INSERT INTO hl_addresses (address) VALUES ${WALLETS.map((w) => `('${w}')`).join(', ')}`;

    sut.logQueryError('duplicate key value violates unique constraint', query, []);

    expect(lines[0].length).toBeLessThan(QUERY_TEXT_MAX_CHARS + 200);
    expect(lines[0]).not.toContain(WALLETS[WALLETS.length - 1]);
  });

  it('prints nothing for a query that succeeds, and no parameters of a slow one', () => {
    const { lines, logger } = capture();
    const sut = new TypeOrmQueryLogger(logger);

    sut.logQuery();
    sut.logQuerySlow(2_500, 'SELECT * FROM hl_positions WHERE address = ANY($1)', [WALLETS]);

    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('2500 ms');
    expect(lines[0]).not.toContain(WALLETS[0]);
  });

  it('is the logger every data source of the service uses', () => {
    const options = buildDataSourceOptions({ database: { url: 'postgres://db/test', dataDir: '/tmp/unused', migrationsRun: false } }, []);
    expect(new DataSource(options).logger).toBeInstanceOf(TypeOrmQueryLogger);
  });
});
