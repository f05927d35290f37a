import { HttpException } from '@nestjs/common';
import { BODY_TOO_DEEP, bodyDepthError, MAX_BODY_DEPTH } from './body-depth';

/** `depth` levels of objects and arrays, alternating, the innermost holding a string. */
function nestedBody(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = depth; level > 0; level--) value = level % 2 === 0 ? [value] : { a: value };
  return value;
}

describe(bodyDepthError.name, () => {
  it('accepts a body nested exactly to the bound, and scalars and empty bodies', () => {
    expect(bodyDepthError(nestedBody(MAX_BODY_DEPTH))).toBeUndefined();
    expect(bodyDepthError({})).toBeUndefined();
    expect(bodyDepthError('text')).toBeUndefined();
    expect(bodyDepthError(null)).toBeUndefined();
    expect(bodyDepthError(undefined)).toBeUndefined();
  });

  it('refuses a body one level past the bound with 400 naming body', () => {
    const sut = bodyDepthError(nestedBody(MAX_BODY_DEPTH + 1));
    expect(sut).toBeInstanceOf(HttpException);
    expect({ status: sut?.getStatus(), message: sut?.message }).toEqual({ status: 400, message: BODY_TOO_DEEP });
  });

  it('finds the deep branch beside shallow ones', () => {
    expect(bodyDepthError({ a: 1, b: [{ c: 2 }], d: nestedBody(MAX_BODY_DEPTH) })).toBeInstanceOf(HttpException);
    expect(bodyDepthError({ a: 1, b: [{ c: 2 }], d: nestedBody(MAX_BODY_DEPTH - 1) })).toBeUndefined();
  });

  it('walks a body as deep as the size limit allows without overflowing the stack', () => {
    expect(bodyDepthError(nestedBody(50_000))).toBeInstanceOf(HttpException);
  });
});
