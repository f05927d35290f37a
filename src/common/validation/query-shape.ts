import { getMetadataStorage, ValidationError } from 'class-validator';

/** The parameter names a query DTO declares, and which of them may repeat (array-valued ones). */
export interface QueryShape {
  known: ReadonlySet<string>;
  repeatable: ReadonlySet<string>;
}

/** A query DTO class, as class-validator's metadata storage takes it. */
type DtoClass = abstract new (...args: never[]) => unknown;

const shapes = new WeakMap<DtoClass, QueryShape>();

/** Read once per DTO class from the class-validator metadata its decorators registered (parents included). */
export function queryShapeOf(dto: DtoClass): QueryShape {
  let shape = shapes.get(dto);
  if (!shape) {
    const metadatas = getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false);
    shape = {
      known: new Set(metadatas.map((m) => m.propertyName)),
      repeatable: new Set(metadatas.filter((m) => m.each === true || m.name === 'isArray').map((m) => m.propertyName)),
    };
    shapes.set(dto, shape);
  }
  return shape;
}

/**
 * What is wrong with the adapter's raw query object as a whole, in class-validator's own wording so the
 * pipe's exception factory words it like every other validation error; empty when nothing is.
 *
 * Checked here on the raw object's own keys because class-transformer skips keys that name an inherited
 * function (`constructor`, `toString`, ...) and cannot copy `__proto__`, so class-validator's whitelist never
 * sees them. And a repeated parameter arrives as an array, which each field's validator would describe
 * as a wrong type (or, for numbers, as out of range).
 */
export function queryShapeErrors(query: unknown, shape: QueryShape): ValidationError[] {
  if (typeof query !== 'object' || query === null) return [];
  const names = Object.keys(query);
  const unknown = names.find((name) => !shape.known.has(name));
  if (unknown !== undefined) return [problem(unknown, 'whitelistValidation', `property ${unknown} should not exist`)];
  const repeated = names.find((name) => Array.isArray((query as Record<string, unknown>)[name]) && !shape.repeatable.has(name));
  if (repeated !== undefined) return [problem(repeated, 'singleValue', `${repeated} given more than once`)];
  return [];
}

function problem(property: string, constraint: string, message: string): ValidationError {
  return Object.assign(new ValidationError(), { property, constraints: { [constraint]: message }, children: [] });
}
