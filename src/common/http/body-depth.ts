import { HttpException, HttpStatus } from '@nestjs/common';

/**
 * The deepest JSON body accepted, counting each object and array as a level (`{"a":[1]}` is 2). No route's
 * body nests past 4; class-transformer recurses once per level and overflows the stack from about 1,500
 * levels, which fit in well under the size limit.
 */
export const MAX_BODY_DEPTH = 32;

export const BODY_TOO_DEEP = `body: nested deeper than ${MAX_BODY_DEPTH} levels`;

/**
 * The refusal for a parsed body nested deeper than MAX_BODY_DEPTH, undefined for any other. Checked by the
 * body parsers, before anything transforms the body; walked without recursion, so no depth overflows it.
 */
export function bodyDepthError(body: unknown): HttpException | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const pending: Array<{ node: object; depth: number }> = [{ node: body, depth: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.depth > MAX_BODY_DEPTH) return new HttpException(BODY_TOO_DEEP, HttpStatus.BAD_REQUEST);
    for (const child of Object.values(next.node)) {
      if (typeof child === 'object' && child !== null) pending.push({ node: child as object, depth: next.depth + 1 });
    }
  }
  return undefined;
}
