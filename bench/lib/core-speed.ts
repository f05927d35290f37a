import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';

// A small JSON round trip, the kind of work a server does per request; counted for SPIN_MS per try.
const SPIN_MS = 500;
const SPIN = `
const o = { code: '0', msg: 'success', data: { balance: '99999999.5', resetAnchorAt: '2025-01-01T00:00:00.000Z', items: [1, 2, 3] } };
const end = Date.now() + ${SPIN_MS};
let n = 0;
while (Date.now() < end) for (let i = 0; i < 100; i++, n++) JSON.parse(JSON.stringify(o));
process.stdout.write(String(n));`;

export interface CoreSpeed {
  core: number;
  /** JSON round trips per millisecond, the best of the tries. */
  opsPerMs: number;
}

/**
 * How fast each core runs the same single-threaded JavaScript, one core at a time, before any load. This
 * VM's cores do not always run at the same speed (twelfth session: core 0 at 0.60–0.65 of core 1 for
 * minutes, idle or not), and the bench's ratios compare a server on one core with a load generator on the
 * other, so a run prints them beside its figures.
 */
export function measureCoreSpeeds(tries = 2): CoreSpeed[] {
  const cores = cpus().length >= 2 ? [0, 1] : [0];
  const best = new Map<number, number>(cores.map((core) => [core, 0]));
  for (let t = 0; t < tries; t++) {
    for (const core of cores) {
      const ops = Number(execFileSync('taskset', ['-c', String(core), process.execPath, '-e', SPIN], { encoding: 'utf8' }));
      best.set(core, Math.max(best.get(core)!, ops / SPIN_MS));
    }
  }
  return cores.map((core) => ({ core, opsPerMs: Math.round(best.get(core)!) }));
}

export function describeCoreSpeeds(speeds: CoreSpeed[]): string {
  const list = speeds.map((s) => `core ${s.core} ${s.opsPerMs}`).join(', ');
  const ratio = speeds.length === 2 ? `; core 0 / core 1 = ${(speeds[0].opsPerMs / speeds[1].opsPerMs).toFixed(2)}` : '';
  return `core speed (JSON round trips per ms, one core at a time): ${list}${ratio}`;
}
