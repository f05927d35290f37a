import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { LedgerRepository } from '../src/common/billing/ledger.repository';

// Scratch (not committed): PostgreSQL backend CPU per ledger row by batch size.
const cpuMs = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
async function main() {
  const db = new Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
  await db.connect();
  const pid = (await db.query('select pg_backend_pid() as p')).rows[0].p as number;
  const accounts: string[] = [];
  for (let i = 0; i < 520; i++) accounts.push((await db.query(`insert into accounts (wallet_address, tier) values ($1, 'max') returning id`, [`0x${randomUUID().replace(/-/g, '')}xp${i}`])).rows[0].id);
  const repo = new LedgerRepository({ query: (sql: string, p: unknown[]) => db.query(sql, p).then((r) => r.rows) } as never);
  const token = randomUUID(); await repo.claim('xp:outbox', token);
  let seq = 0; const size = Number(process.env.SIZE ?? 2000), batches = Math.round(60000 / size);
  const c0 = cpuMs(pid);
  for (let b = 0; b < batches; b++) {
    const lines: string[] = [];
    for (let i = 0; i < size; i++) { seq++; lines.push(['charge', accounts[seq % 520], `${Date.now().toString(16)}-${seq.toString(16).padStart(8, '0')}-7abc-8def-0123456789ab`, 'account.credits', '-1000000', String(1e14 - seq * 1e6), '1', '0', String(seq), String(Date.now())].join('|')); }
    await repo.write(lines, { outbox: 'xp:outbox', token });
  }
  console.log(`size ${size}: backend cpu ${(1000 * (cpuMs(pid) - c0) / (batches * size)).toFixed(1)} µs/row`);
  await db.query('delete from credit_transactions where account_id = any($1)', [accounts]);
  await db.query('delete from accounts where id = any($1)', [accounts]); await db.query(`delete from ledger_drain where outbox = 'xp:outbox'`); await db.query('vacuum credit_transactions, accounts'); await db.end();
}
void main();
