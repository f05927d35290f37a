const TWO_32 = 4294967296;

/** Final mix of a 32-bit integer (lowbias32); good avalanche, used for every deterministic draw. */
export function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of a seed and a non-negative integer that may exceed 32 bits (timestamps, time buckets). */
export function hash2(seed: number, n: number): number {
  const lo = n >>> 0 === n ? n : n % TWO_32;
  const hi = n >= TWO_32 || n < 0 ? Math.floor(n / TWO_32) : 0;
  return mix32(mix32(seed ^ 0x9e3779b9) ^ mix32(lo + 0x85ebca6b) ^ mix32(hi + 0xc2b2ae35));
}

export function hash3(seed: number, a: number, b: number): number {
  return hash2(hash2(seed, a), b);
}

/** A uniform number in [0, 1) from a 32-bit hash. */
export function unit(hash: number): number {
  return hash / TWO_32;
}

/** FNV-1a of a string, for seeding streams by name. */
export function stringHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** mulberry32: a small, fast, deterministic stream of uniforms in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / TWO_32;
  };
}

/** `0x` + 64 lowercase hex digits (a transaction hash) from a seed. */
export function hexHash(seed: number): string {
  let out = '0x';
  let h = seed;
  for (let i = 0; i < 8; i++) {
    h = mix32(h + 0x632be5ab + i);
    out += h.toString(16).padStart(8, '0');
  }
  return out;
}

/** Value noise in [-1, 1]: a fresh random value at each integer x, smoothly interpolated in between. */
export function valueNoise(seed: number, x: number): number {
  const i = Math.floor(x);
  const f = x - i;
  const a = unit(hash2(seed, i)) * 2 - 1;
  if (f === 0) return a;
  const b = unit(hash2(seed, i + 1)) * 2 - 1;
  const s = f * f * (3 - 2 * f);
  return a + (b - a) * s;
}
