import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The parts of a V8 `.cpuprofile` (what `node --cpu-prof` writes at exit) that a summary reads. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  /** CLOCK_MONOTONIC µs, the clock of process.hrtime in every process of the machine. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A stretch of a server's life, in CLOCK_MONOTONIC µs (`process.hrtime.bigint() / 1000n` in any process). */
export interface ProfileWindow {
  label: string;
  fromUs: number;
  toUs: number;
}

export interface FrameShare {
  frame: string;
  /** Share of the window's samples, idle excluded. */
  share: number;
}

export interface WindowSummary {
  label: string;
  /** Non-idle samples in the window (one per sampling interval, 1 ms by default). */
  busySamples: number;
  top: FrameShare[];
  /** The same samples by where the code lives: a package, node's internals, our src/, GC. */
  byArea: FrameShare[];
}

/** The profile `node --cpu-prof --cpu-prof-dir=<dir>` wrote for `pid` (its file name carries the pid), or undefined. */
export function findProfile(nodeArgs: string, pid: number): string | undefined {
  const dirArg = nodeArgs.split(' ').find((arg) => arg.startsWith('--cpu-prof-dir='));
  const dir = resolve(dirArg ? dirArg.slice('--cpu-prof-dir='.length) : process.cwd());
  if (!existsSync(dir)) return undefined;
  const name = readdirSync(dir).find((file) => file.endsWith('.cpuprofile') && file.split('.').includes(String(pid)));
  return name && join(dir, name);
}

function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const own = /\/(src|bench)\/(.*)$/.exec(url);
  return own ? `${own[1]}/${own[2].split('/').slice(0, -1).join('/') || '.'}` : url;
}

/** Top self-time frames of each window: where the server's CPU went while one route was loaded. */
export function summariseProfile(file: string, windows: ProfileWindow[], topN = 15): WindowSummary[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  return windows.map(({ label, fromUs, toUs }) => {
    const frames = new Map<string, number>();
    const areas = new Map<string, number>();
    let busy = 0;
    let at = profile.startTime;
    for (let i = 0; i < profile.samples.length; i += 1) {
      at += profile.timeDeltas[i];
      if (at < fromUs || at > toUs) continue;
      const frame = byId.get(profile.samples[i])!;
      if (frame.functionName === '(idle)') continue;
      busy += 1;
      const where = frame.url ? `${frame.url.replace(/^.*\/(node_modules|src|bench)\//, '$1/')}:${frame.lineNumber + 1}` : '';
      const key = `${frame.functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
      frames.set(key, (frames.get(key) ?? 0) + 1);
      const area = areaOf(frame.url, frame.functionName);
      areas.set(area, (areas.get(area) ?? 0) + 1);
    }
    const ranked = (counts: Map<string, number>, n: number) =>
      [...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([frame, count]) => ({ frame, share: count / Math.max(1, busy) }));
    return { label, busySamples: busy, top: ranked(frames, topN), byArea: ranked(areas, 10) };
  });
}

export function describeSummaries(summaries: WindowSummary[]): string {
  const pct = (share: number) => `${(100 * share).toFixed(1).padStart(5)} %`;
  return summaries
    .map((s) =>
      [
        `${s.label}: ${s.busySamples} busy samples`,
        ...s.top.map((f) => `  ${pct(f.share)}  ${f.frame}`),
        `  by area: ${s.byArea.map((a) => `${a.frame} ${(100 * a.share).toFixed(0)} %`).join(', ')}`,
      ].join('\n'),
    )
    .join('\n\n');
}

/** Microseconds on the clock the profile's windows use. */
export function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/**
 * With BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=<dir>", the app's top self-time frames during each run's
 * window (the profile is written when the app stops); nothing otherwise.
 */
export function printProfile(pid: number, windows: ProfileWindow[]): void {
  const nodeArgs = process.env.BENCH_NODE_ARGS ?? '';
  if (!nodeArgs.includes('--cpu-prof')) return;
  const file = findProfile(nodeArgs, pid);
  if (!file) return void process.stderr.write(`WARNING: no .cpuprofile of the app (pid ${pid}) found\n`);
  process.stdout.write(`\nserver CPU profile ${file}, self time per run:\n\n${describeSummaries(summariseProfile(file, windows))}\n\n`);
}
