import { ArgumentMetadata } from '@nestjs/common';
import { AppError } from '../errors/app-error';

const NUL = '\u0000';
const PROBLEM = 'must not contain a NUL character (U+0000)';
const NAME_PROBLEM = `a name ${PROBLEM}`;

/** What a value is called when the route reads it whole (`@Query()`, `@Body()`, `@Param()`). */
const WHOLE: Partial<Record<ArgumentMetadata['type'], string>> = { query: 'query', body: 'body', param: 'path' };

/**
 * The refusal for a query, path or body value holding U+0000 anywhere (a value, an element, a name),
 * naming it by its dotted path as class-validator would (`addresses.0.tags.1`); undefined otherwise and for
 * custom parameters, which come from code, not the client. PostgreSQL stores no NUL in text or jsonb, so
 * one that got through would fail in the driver as a 500; refused once, where every value is read.
 */
export function nulCharacterError(value: unknown, { type, data }: ArgumentMetadata): AppError | undefined {
  const whole = WHOLE[type];
  if (whole === undefined) return undefined;
  const found = nulPath(value, data ?? '');
  if (found === undefined) return undefined;
  return AppError.validation(found.path || whole, found.inName ? NAME_PROBLEM : PROBLEM);
}

/**
 * Where the first NUL is, depth first in document order. Recursive: queries are flat, and the body parsers
 * bound a body's depth before any pipe sees it (body-depth.ts).
 */
function nulPath(value: unknown, path: string): { path: string; inName: boolean } | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? { path, inName: false } : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [name, child] of Object.entries(value)) {
    if (name.includes(NUL)) return { path, inName: true };
    const found = nulPath(child, path ? `${path}.${name}` : name);
    if (found) return found;
  }
  return undefined;
}
