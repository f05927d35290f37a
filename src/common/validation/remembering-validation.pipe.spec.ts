import { BadRequestException } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { AppError } from '../errors/app-error';
import { createAppValidationPipe, RememberingValidationPipe } from './remembering-validation.pipe';

class PageQuery {
  @IsString()
  coin!: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit = 100;

  @IsOptional()
  @IsIn(['asc', 'desc'], { each: true })
  orders?: string[];
}

const asQuery = { type: 'query', metatype: PageQuery } as const;
const asBody = { type: 'body', metatype: PageQuery } as const;

describe(RememberingValidationPipe.name, () => {
  const newPipe = () => new RememberingValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true });

  it('answers a query string it has validated before with the same DTO, frozen all the way down', async () => {
    const sut = newPipe();
    const first = (await sut.transform({ coin: 'BTC', limit: '50', orders: ['asc'] }, asQuery)) as PageQuery;
    const again = await sut.transform({ coin: 'BTC', limit: '50', orders: ['asc'] }, asQuery);

    expect(first).toBeInstanceOf(PageQuery);
    expect(first).toMatchObject({ coin: 'BTC', limit: 50, orders: ['asc'] });
    expect(again).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.orders)).toBe(true);
  });

  it('makes a DTO of its own for every other query string', async () => {
    const sut = newPipe();
    const btc = await sut.transform({ coin: 'BTC' }, asQuery);
    const eth = (await sut.transform({ coin: 'ETH' }, asQuery)) as PageQuery;

    expect(eth).not.toBe(btc);
    expect(eth).toMatchObject({ coin: 'ETH', limit: 100 });
  });

  it('refuses an invalid query every time it comes', async () => {
    const sut = newPipe();
    await expect(sut.transform({ coin: 'BTC', limit: '0' }, asQuery)).rejects.toBeInstanceOf(BadRequestException);
    await expect(sut.transform({ coin: 'BTC', limit: '0' }, asQuery)).rejects.toBeInstanceOf(BadRequestException);
    await expect(sut.transform({ coin: 'BTC', extra: '1' }, asQuery)).rejects.toBeInstanceOf(BadRequestException);
  });

  it('validates bodies afresh, as the plain ValidationPipe does', async () => {
    const sut = newPipe();
    const first = await sut.transform({ coin: 'BTC' }, asBody);
    const again = await sut.transform({ coin: 'BTC' }, asBody);

    expect(again).not.toBe(first);
    expect(Object.isFrozen(first)).toBe(false);
  });

  it('refuses a NUL character in a query, a path parameter and a body before validating them, naming the field', async () => {
    const sut = createAppValidationPipe();
    const nul = (field: string) => AppError.validation(field, 'must not contain a NUL character (U+0000)');
    await expect(sut.transform({ coin: 'BTC\u0000' }, asQuery)).rejects.toEqual(nul('coin'));
    // Refused before the query-shape check, which would name the parameter with its NUL.
    await expect(sut.transform({ 'co\u0000in': 'BTC' }, asQuery)).rejects.toEqual(
      AppError.validation('query', 'a name must not contain a NUL character (U+0000)'),
    );
    await expect(sut.transform('BTC\u0000', { type: 'param', data: 'symbol', metatype: String })).rejects.toEqual(nul('symbol'));
    await expect(sut.transform({ coin: 'BTC', orders: ['asc', '\u0000'] }, asBody)).rejects.toEqual(nul('orders.1'));
  });

  describe('query shape', () => {
    const newAppPipe = createAppValidationPipe;
    /** A query object as the adapters make it: no prototype, so any name can be an own key. */
    const rawQuery = (entries: Record<string, unknown>) => Object.assign(Object.create(null) as object, entries);
    const messageOf = async (query: object, sut = newAppPipe()) => {
      const error: unknown = await sut.transform(query, asQuery).then(
        () => undefined,
        (e: unknown) => e,
      );
      return error instanceof AppError ? error.message : error;
    };

    it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('refuses %s, which Object.prototype also has', async (name) => {
      const query = rawQuery({ coin: 'BTC' });
      Object.defineProperty(query, name, { value: '1', enumerable: true });
      expect(await messageOf(query)).toBe(`${name}: is not a known parameter`);
    });

    it('refuses a repeated single parameter, and accepts repeats of an array one', async () => {
      expect(await messageOf(rawQuery({ coin: ['BTC', 'ETH'] }))).toBe('coin: given more than once');
      expect(await messageOf(rawQuery({ coin: 'BTC', limit: ['1', '2'] }))).toBe('limit: given more than once');
      expect(await messageOf(rawQuery({ coin: 'BTC', orders: ['asc', 'desc'] }))).toBeUndefined();
    });

    it('never remembers a refused query, even after a valid one', async () => {
      const sut = newAppPipe();
      await sut.transform(rawQuery({ coin: 'BTC' }), asQuery);
      for (let i = 0; i < 2; i++) {
        expect(await messageOf(rawQuery({ coin: 'BTC', constructor: '1' }), sut)).toBe('constructor: is not a known parameter');
      }
    });
  });
});
