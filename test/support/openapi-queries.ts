import fc from 'fast-check';
import { TIME_PARAM_PATTERN } from '../../src/common/validation/time-param.decorator';
import { SEED_MIDS } from './hl-seed';

/**
 * Query generation for the property run over the OpenAPI document (test/e2e/openapi-property.e2e-spec.ts):
 * values from each parameter's schema, valid or hostile, and the schema's own verdict on a query.
 */
export type Schema = Record<string, unknown> & {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  format?: string;
  example?: unknown;
};
export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  schema: Schema;
}
export interface Response {
  description: string;
  headers?: Record<string, unknown>;
  content?: { 'application/json'?: { schema?: Schema } };
}
export interface Operation {
  operationId: string;
  parameters?: Parameter[];
  responses: Record<string, Response>;
  security?: unknown[];
}
export interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, unknown>;
}

/** One query item: an encoded name=value pair, or a raw fragment sent as it is (broken encodings, brackets). */
export type QueryItem = { name: string; value: string } | { raw: string };
/**
 * Cursor markers, resolved when the request is sent. FOLLOW: continue an earlier answer of the route (its
 * query plus its nextCursor), or send no cursor while there is none. HARVESTED: some earlier nextCursor of the
 * route beside whatever else was generated (bound to other parameters, so mostly a 400 naming cursor).
 */
export const FOLLOW = '\u0000follow';
export const HARVESTED = '\u0000harvested';

const HOSTILE_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  '1.5',
  '1e2',
  '0x10',
  '+1',
  ' 5',
  '5 ',
  '١٢',
  'NaN',
  'Infinity',
  'true',
  'null',
  '[]',
  '{}',
  "' OR '1'='1",
  '1; DROP TABLE accounts;--',
  "BTC' UNION SELECT password FROM pg_shadow--",
  '"; SELECT pg_sleep(5);--',
  '$1',
  '%',
  '../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '/api/public/v1/account',
  '\\..\\windows',
  'file:///etc/passwd',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '{"__proto__":{"admin":true}}',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '\u0000',
  '\r\nX-Injected: 1',
  '\u202e',
  '🚀',
  'Ω≈ç√',
  'ｂｔｃ',
  'BTC\u0000',
  '0x' + 'f'.repeat(40),
  '0x' + 'F'.repeat(39),
  'xyz:',
  ':TSLA',
  'xyz:TSLA:extra',
  '#0',
  'btc',
  'BTC ',
  'bm90LWEtY3Vyc29y',
];
/** Raw query fragments, and whether a route must refuse them (a name no route declares, a bracket or repeated name). */
const HOSTILE_RAW: Record<string, boolean> = {
  '%': true,
  '%zz': true,
  '%00': true,
  '%E2%82': true,
  x: true,
  'coin[]=BTC': true,
  'coin[a]=1': true,
  'limit[]=1': true,
  'page=1&page=2': true,
  // Empty names: the parsers drop them, so there is nothing to refuse.
  '&&': false,
  '=': false,
  '==1': false,
  'a[__proto__]=1': false,
};
const UNKNOWN_NAMES = ['bogus', 'limt', 'constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'COIN', 'Limit', ''];

/**
 * Queries for one operation. 'valid': each declared parameter a value its schema allows, or absent when
 * optional. 'hostile': each valid, hostile, absent or given twice, plus unknown names and raw fragments.
 */
export function queryArbitrary(parameters: Parameter[], mode: 'valid' | 'hostile'): fc.Arbitrary<QueryItem[]> {
  const declared = parameters.filter((p) => p.in === 'query');
  if (mode === 'valid') {
    const perParameter = declared.map((p) =>
      (p.required
        ? validValue(p, mode).map((v) => [v])
        : fc.option(validValue(p, mode), { nil: undefined, freq: 2 }).map((v) => (v === undefined ? [] : [v]))
      ).map((values) => values.map((value): QueryItem => ({ name: p.name, value }))),
    );
    return fc.tuple(...perParameter).map((items) => items.flat());
  }
  const perParameter = declared.map((p) =>
    fc
      .oneof(
        { weight: p.required ? 8 : 4, arbitrary: validValue(p, mode).map((v) => [v]) },
        { weight: 2, arbitrary: hostileValue(p).map((v) => [v]) },
        { weight: p.required ? 1 : 4, arbitrary: fc.constant([] as string[]) },
        // Given more than once: the same valid value twice, or two different ones.
        { weight: 1, arbitrary: fc.tuple(validValue(p, mode), fc.oneof(validValue(p, mode), hostileValue(p))) },
      )
      .map((values) => values.map((value): QueryItem => ({ name: p.name, value }))),
  );
  const extras = fc.oneof(
    { weight: 8, arbitrary: fc.constant([] as QueryItem[]) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...UNKNOWN_NAMES), fc.constantFrom('1', 'x', '')).map(([name, value]) => [{ name, value }]) },
    { weight: 1, arbitrary: fc.constantFrom(...Object.keys(HOSTILE_RAW)).map((raw) => [{ raw }]) },
  );
  return fc
    .tuple(fc.tuple(...perParameter), extras)
    .chain(([items, extra]) => fc.shuffledSubarray([...items.flat(), ...extra], { minLength: items.flat().length + extra.length }));
}

/** Values the schema allows; a coin comes from the seeded market (the schema's example first). */
function validValue(p: Parameter, mode: 'valid' | 'hostile'): fc.Arbitrary<string> {
  const s = p.schema;
  if (p.name === 'cursor') return fc.constant(mode === 'valid' ? FOLLOW : HARVESTED);
  if (s.enum) return fc.constantFrom(...s.enum.map(String));
  if (s.type === 'integer' || s.type === 'number') {
    const min = s.minimum ?? 0;
    const max = s.maximum ?? min + 40;
    // The example is a value the seed holds (outcomeId 0); the rest of the range mostly is not.
    const listed = typeof s.example === 'number' ? [fc.constant(s.example), fc.constant(s.example)] : [];
    return fc.oneof(...listed, fc.constantFrom(min, max), fc.integer({ min, max })).map(String);
  }
  if (s.pattern === '^0x[0-9a-fA-F]{40}$') {
    // Seeded wallets are 0x000…<n>: small n finds real rows, random hex finds none.
    return fc.oneof(
      fc.integer({ min: 1, max: 80 }).map((n) => '0x' + n.toString(16).padStart(40, '0')),
      fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: 40, maxLength: 40 }).map((h) => `0x${h}`),
    );
  }
  if (p.name === 'coin' && s.example !== undefined)
    return fc.oneof({ weight: 3, arbitrary: fc.constant(String(s.example)) }, { weight: 2, arbitrary: fc.constantFrom(...Object.keys(SEED_MIDS)) });
  if (s.format === 'date')
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  // A time parameter: real instants in either documented form (the pattern cannot rule out 2026-02-30).
  if (s.pattern === TIME_PARAM_PATTERN) {
    const instant = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true });
    return fc.oneof(
      instant.map((d) => String(d.getTime())),
      instant.map((d) => d.toISOString()),
      instant.map((d) => d.toISOString().slice(0, 10)),
    );
  }
  const minLength = s.minLength ?? 0;
  const maxLength = Math.min(s.maxLength ?? 32, 32);
  // Anything the schema allows: a pattern's language within the length bounds, else any string of an allowed length.
  if (s.pattern) return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= minLength && v.length <= (s.maxLength ?? Infinity));
  return fc.string({ minLength, maxLength: Math.max(minLength, maxLength) });
}

/** Values no schema allows, or that test the parser: out of range, wrong types, injections, traversal, unicode, very long. */
function hostileValue(p: Parameter): fc.Arbitrary<string> {
  const s = p.schema;
  const numeric = s.type === 'integer' || s.type === 'number';
  return fc.oneof(
    fc.constantFrom(...HOSTILE_STRINGS),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ unit: 'binary-ascii', maxLength: 40 }),
    fc.string({ minLength: (s.maxLength ?? 1000) + 1, maxLength: (s.maxLength ?? 1000) + 600 }),
    numeric
      ? fc.constantFrom(String((s.minimum ?? 0) - 1), String((s.maximum ?? 1e6) + 1), '9'.repeat(30), String(Number.MAX_SAFE_INTEGER + 2), '-0', '1.0', '00001')
      : fc.constantFrom(...(s.enum ?? ['x']).map((v) => String(v).toUpperCase() + ' ')),
  );
}

/**
 * Refusals no schema can state, which a request generated from the schemas may meet: a value the live data
 * does not list (coins, outcomes and category slugs change at runtime; each route's text says so), and rules
 * across two parameters (a window's order and length).
 */
export const REFUSALS_BEYOND_SCHEMA = [
  /^coin: unknown coin /,
  /^outcomeId: unknown outcome /,
  /^category: must be one of /,
  /must not be (after|before) /,
  /the window may cover at most /,
];

/** Why the schema forbids this query (a value out of its schema, a repeated or undeclared name), or null. */
export function schemaViolation(parameters: Parameter[], query: QueryItem[]): string | null {
  const declared = new Map(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p]));
  const seen = new Set<string>();
  // The routes document that page is ignored beside a cursor (RANK_PAGING in hl-openapi.ts).
  const withCursor = query.some((item) => 'name' in item && item.name === 'cursor');
  for (const item of query) {
    if ('raw' in item) {
      if (HOSTILE_RAW[item.raw]) return `raw ${item.raw}`;
      continue;
    }
    const p = declared.get(item.name);
    if (item.name === '') continue;
    if (!p) return `${item.name}: undeclared`;
    if (seen.has(item.name)) return `${item.name}: repeated`;
    seen.add(item.name);
    if (item.name === 'page' && withCursor) continue;
    const problem = valueViolation(p.schema, item.value);
    if (problem !== null) return `${item.name}: ${problem}`;
  }
  return null;
}

function valueViolation(s: Schema, value: string): string | null {
  if (value === FOLLOW || value === HARVESTED) return null;
  if (s.type === 'integer' || s.type === 'number') {
    if (!/^-?\d+$/.test(value)) return 'not an integer';
    const n = Number(value);
    if ((s.minimum !== undefined && n < s.minimum) || (s.maximum !== undefined && n > s.maximum)) return 'out of range';
    return null;
  }
  if (s.enum && !s.enum.map(String).includes(value)) return 'not in enum';
  if (s.pattern && !new RegExp(s.pattern).test(value)) return 'does not match pattern';
  if (s.maxLength !== undefined && value.length > s.maxLength) return 'too long';
  if (s.minLength !== undefined && value.length < s.minLength) return 'too short';
  return null;
}

export function encodeItem(item: QueryItem): string {
  return 'raw' in item ? item.raw : `${encodeURIComponent(item.name)}=${encodeURIComponent(item.value)}`;
}

export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
