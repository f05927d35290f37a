type Json = unknown;

export interface ShapeRules {
  /** Paths the actual body may add (written with [0] for array elements). */
  extra?: string[];
  /** Paths the actual body may leave out. */
  optional?: string[];
  /** Paths of maps whose keys change over time (CoinGecko's per-currency maps): only their value kinds count. */
  currencyMaps?: RegExp;
  /** false: a scalar matches any scalar (a recorder that stringifies integers); true (default): number vs string counts. */
  scalarKinds?: boolean;
}

function kind(value: Json): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

const CONTAINERS = new Set(['object', 'array']);

/**
 * Differences between the shapes of `actual` and a recorded `expected`, key sets level by level. Arrays compare
 * their first elements, except tuples (elements of mixed kinds, e.g. kline rows or [meta, ctxs]), which compare by
 * position. null on either side matches (nullable fields). Empty when the shapes agree.
 */
export function shapeDiff(actual: Json, expected: Json, rules: ShapeRules = {}, path = '$'): string[] {
  if (actual === null || expected === null) return [];
  if (rules.scalarKinds === false && !CONTAINERS.has(kind(actual)) && !CONTAINERS.has(kind(expected))) return [];
  if (kind(actual) !== kind(expected)) return [`${path}: ${kind(actual)} instead of ${kind(expected)}`];
  if (Array.isArray(actual) && Array.isArray(expected)) {
    if (actual.length === 0 || expected.length === 0) return [];
    const tuple = new Set(expected.map(kind)).size > 1;
    const positions = tuple ? Math.min(actual.length, expected.length) : 1;
    const out: string[] = [];
    for (let i = 0; i < positions; i++) out.push(...shapeDiff(actual[i], expected[i], rules, `${path}[${tuple ? i : 0}]`));
    return out;
  }
  if (kind(actual) !== 'object') return [];
  const a = actual as Record<string, Json>;
  const e = expected as Record<string, Json>;
  if (rules.currencyMaps?.test(path)) {
    const kinds = new Set(Object.values(e).map(kind));
    return Object.entries(a).flatMap(([key, value]) => (kinds.has(kind(value)) ? [] : [`${path}.${key}: ${kind(value)}`]));
  }
  const out: string[] = [];
  for (const key of Object.keys(e)) if (!(key in a) && !rules.optional?.includes(`${path}.${key}`)) out.push(`${path}.${key}: missing`);
  for (const key of Object.keys(a)) {
    if (!(key in e)) {
      if (!rules.extra?.includes(`${path}.${key}`)) out.push(`${path}.${key}: unexpected`);
    } else {
      out.push(...shapeDiff(a[key], e[key], rules, `${path}.${key}`));
    }
  }
  return out;
}
