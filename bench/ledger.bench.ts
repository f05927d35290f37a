import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { OutboxBatch } from '../src/modules/billing/ledger-entry';
import { ledgerLine } from '../test/support/ledger-lines';
import { LedgerRepository } from '../src/modules/billing/ledger.repository';
import { uuidV7 } from '../src/common/http/request-state';
import { ENTITIES } from '../src/app-entities';
import { createDataSource } from '../src/infra/database/data-source';
import { runMigrationsLocked } from '../src/infra/database/run-migrations';
import { envNumber } from './lib/env';

/**
 * `npm run bench:ledger`: PostgreSQL's CPU per ledger row for each way LedgerRepository writes a batch of
 * charges (COPY, and the statement PGlite uses), on a database of its own migrated like the service's.
 * The billed route writes one ledger row per call, so this is most of what a billed call costs the
 * database. CPU is summed over every PostgreSQL process (backends, WAL writer, checkpointer) from /proc,
 * so it counts no matter which pooled connection ran a batch; the two ways alternate to share the machine's
 * slow and fast phases.
 */
const SETTINGS = {
  accounts: envNumber('BENCH_LEDGER_ACCOUNTS', 1_040),
  batchRows: envNumber('BENCH_LEDGER_BATCH', 5_000),
  batches: envNumber('BENCH_LEDGER_BATCHES', 10),
  rounds: envNumber('BENCH_LEDGER_ROUNDS', 3),
  prefillRows: envNumber('BENCH_LEDGER_PREFILL', 100_000),
  adminUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  databaseName: process.env.BENCH_LEDGER_DATABASE || 'ledgerbench',
};
const CLOCK_TICKS_PER_S = 100;
const OUTBOX = 'bench:ledger:outbox';
const TOKEN = 'bench';

/** CPU seconds used so far by every process named postgres. */
function postgresCpuSeconds(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ticks / CLOCK_TICKS_PER_S;
}

async function freshDatabase(): Promise<string> {
  const admin = new Client({ connectionString: SETTINGS.adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${SETTINGS.databaseName}"`);
    await admin.query(`CREATE DATABASE "${SETTINGS.databaseName}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(SETTINGS.adminUrl);
  url.pathname = `/${SETTINGS.databaseName}`;
  return url.toString();
}

/** Charges spread over the accounts, each with its balance and sequence, as the admission script writes them. */
function chargeLines(accounts: string[], balances: Map<string, number>, count: number, seq: { next: number }): OutboxBatch {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const accountId = accounts[(seq.next * 7919) % accounts.length];
    const balance = balances.get(accountId)! - 1_000_000;
    balances.set(accountId, balance);
    seq.next += 1;
    lines.push(
      ledgerLine({
        type: 'charge',
        accountId,
        referenceId: uuidV7(),
        endpoint: 'account.credits',
        amountMicro: '-1000000',
        balanceAfterMicro: String(balance),
        epoch: 0,
        period: 0,
        seq: seq.next,
        atMs: Date.now(),
      }),
    );
  }
  return OutboxBatch.of(lines);
}

async function main(): Promise<void> {
  const databaseUrl = await freshDatabase();
  const db: DataSource = await createDataSource({ database: { url: databaseUrl, dataDir: '', migrationsRun: true } }, ENTITIES).initialize();
  try {
    await runMigrationsLocked(db);
    const accounts: string[] = [];
    for (let i = 0; i < SETTINGS.accounts; i++) accounts.push(randomUUID());
    await db.query(
      `INSERT INTO accounts (id, wallet_address, tier, credit_balance) SELECT a, '0x' || lpad(to_hex(n), 40, '0'), 'max', 100000000
         FROM unnest($1::uuid[]) WITH ORDINALITY AS t(a, n)`,
      [accounts],
    );
    const balances = new Map(accounts.map((a) => [a, 100_000_000_000_000]));
    const seq = { next: 0 };
    // The repository takes COPY on PostgreSQL; the statement way is the one it takes on embedded PGlite, measured here on PostgreSQL.
    const statementOnly = new LedgerRepository(db);
    Reflect.set(statementOnly, 'bulkCopy', false);
    const ways = [
      { name: 'COPY', repository: new LedgerRepository(db), usPerRow: [] as number[] },
      { name: 'statement', repository: statementOnly, usPerRow: [] as number[] },
    ];
    await ways[0].repository.claim(OUTBOX, TOKEN);
    const write = async (repository: LedgerRepository, rows: number) => {
      const { inserted } = await repository.write(chargeLines(accounts, balances, rows, seq), { outbox: OUTBOX, token: TOKEN });
      if (inserted !== rows) throw new Error(`wrote ${inserted} of ${rows} rows`);
    };
    process.stdout.write(`ledger bench: ${SETTINGS.accounts} accounts, ${SETTINGS.prefillRows} rows first, then batches of ${SETTINGS.batchRows}\n`);
    for (let done = 0; done < SETTINGS.prefillRows; done += SETTINGS.batchRows) await write(ways[0].repository, SETTINGS.batchRows);
    await db.query('CHECKPOINT');
    for (let round = 0; round < SETTINGS.rounds; round++) {
      for (const way of round % 2 === 0 ? ways : [...ways].reverse()) {
        const before = postgresCpuSeconds();
        for (let b = 0; b < SETTINGS.batches; b++) await write(way.repository, SETTINGS.batchRows);
        const usPerRow = ((postgresCpuSeconds() - before) * 1e6) / (SETTINGS.batches * SETTINGS.batchRows);
        way.usPerRow.push(usPerRow);
        process.stdout.write(`  round ${round + 1} ${way.name.padEnd(9)} ${usPerRow.toFixed(2)} µs of PostgreSQL CPU per row\n`);
      }
    }
    const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
    for (const way of ways) process.stdout.write(`${way.name.padEnd(9)} median ${median(way.usPerRow).toFixed(2)} µs per row\n`);
  } finally {
    await db.destroy();
    const admin = new Client({ connectionString: SETTINGS.adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${SETTINGS.databaseName}"`).finally(() => admin.end());
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:ledger failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
