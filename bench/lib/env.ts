/** A positive number from the environment (e.g. BENCH_DURATION=20), or the fallback when unset or not one. */
export function envNumber(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
