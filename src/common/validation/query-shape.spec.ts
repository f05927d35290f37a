import { IsIn, IsOptional, IsString } from 'class-validator';
import { queryShapeErrors, queryShapeOf } from './query-shape';
import { validationExceptionFactory } from './validation-exception.factory';

class BaseQueryDto {
  @IsOptional()
  @IsString()
  cursor?: string;
}

class CoinQueryDto extends BaseQueryDto {
  @IsString()
  coin!: string;

  @IsOptional()
  @IsIn(['asc', 'desc'], { each: true })
  orders?: string[];
}

/** A query object as the adapters make it: no prototype, so any name can be an own key. */
function rawQuery(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.assign(Object.create(null), entries);
}

describe(queryShapeErrors.name, () => {
  const shape = queryShapeOf(CoinQueryDto);
  const sut = (query: Record<string, unknown>) => {
    const errors = queryShapeErrors(query, shape);
    return errors.length === 0 ? undefined : validationExceptionFactory(errors).message;
  };

  it('knows the DTO parameters, inherited ones included', () => {
    expect([...shape.known].sort()).toEqual(['coin', 'cursor', 'orders']);
    expect([...shape.repeatable]).toEqual(['orders']);
  });

  it('passes a query of known single parameters, and repeats of array parameters', () => {
    expect(sut(rawQuery({ coin: 'BTC', cursor: 'x', orders: ['asc', 'desc'] }))).toBeUndefined();
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'bogus'])('refuses %s as an unknown parameter', (name) => {
    const query = rawQuery({ coin: 'BTC' });
    // Defined, not assigned: assigning __proto__ on an object without a prototype is fine, but be explicit.
    Object.defineProperty(query, name, { value: '1', enumerable: true });
    expect(sut(query)).toBe(`${name}: is not a known parameter`);
  });

  it('names a parameter without a name as the query', () => {
    expect(sut(rawQuery({ coin: 'BTC', '': '1' }))).toBe('query: is not a known parameter');
  });

  it('says a repeated single parameter is given more than once', () => {
    expect(sut(rawQuery({ coin: ['BTC', 'ETH'] }))).toBe('coin: given more than once');
    expect(sut(rawQuery({ coin: 'BTC', cursor: ['a', 'a'] }))).toBe('cursor: given more than once');
  });

  it('names an unknown parameter before a repeated one', () => {
    expect(sut(rawQuery({ coin: ['BTC', 'ETH'], bogus: '1' }))).toBe('bogus: is not a known parameter');
  });
});
