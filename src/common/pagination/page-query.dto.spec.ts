import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { validationExceptionFactory } from '../validation/validation-exception.factory';
import { CursorPageQuery, PageQuery, PageQueryDto } from './page-query.dto';

/** Metadata key @ApiProperty writes (API_MODEL_PROPERTIES; the package exports map hides dist/constants). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

/** What the global ValidationPipe does: transform the raw query, then validate with whitelist. */
async function parse<T extends object>(cls: new () => T, query: Record<string, unknown>) {
  const dto = plainToInstance(cls, query);
  const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true });
  return { dto, failed: errors.map((e) => e.property) };
}

/** The envelope message the app answers (same validator options as app.setup.ts). */
async function messageFor<T extends object>(cls: new () => T, query: Record<string, unknown>): Promise<string | undefined> {
  const errors = await validate(plainToInstance(cls, query), { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
  return errors.length === 0 ? undefined : validationExceptionFactory(errors).message;
}

class HoldersQueryDto extends PageQuery({ defaultLimit: 50, maxLimit: 500 }) {}
class TradesQueryDto extends CursorPageQuery({ defaultLimit: 100, maxLimit: 1000, minLimit: 10 }) {}

describe('PageQuery', () => {
  const sut = HoldersQueryDto;

  it('turns query strings into integers', async () => {
    const { dto, failed } = await parse(sut, { page: '2', limit: '20' });
    expect(failed).toEqual([]);
    expect(dto).toMatchObject({ page: 2, limit: 20 });
  });

  it('defaults to page 1 and the endpoint default limit', async () => {
    const { dto, failed } = await parse(sut, {});
    expect(failed).toEqual([]);
    expect(dto).toMatchObject({ page: 1, limit: 50 });
  });

  it('accepts the endpoint maximum limit', async () => {
    expect((await parse(sut, { limit: '500' })).failed).toEqual([]);
  });

  it.each(['abc', '1.5', '0', '-1', '', 'NaN'])('rejects page %j', async (page) => {
    expect((await parse(sut, { page })).failed).toEqual(['page']);
  });

  it.each(['abc', '1.5', '0', '-1', '501'])('rejects limit %j', async (limit) => {
    expect((await parse(sut, { limit })).failed).toEqual(['limit']);
  });

  it('rejects a repeated page parameter', async () => {
    expect((await parse(sut, { page: ['1', '2'] })).failed).toEqual(['page']);
  });

  it.each(['abc', '1e2', '0x10', '+1', ' 5', '5 ', '', '1.0', 'Infinity'])('says limit %j is not an integer', async (limit) => {
    expect(await messageFor(sut, { limit })).toBe('limit: must be an integer');
    expect(await messageFor(sut, { page: limit })).toBe('page: must be an integer');
  });

  it('says what is wrong with an integer out of bounds', async () => {
    expect(await messageFor(sut, { limit: '501' })).toBe('limit: must not be greater than 500');
    expect(await messageFor(sut, { limit: '0' })).toBe('limit: must not be less than 1');
    expect(await messageFor(sut, { limit: '-1' })).toBe('limit: must not be negative');
    expect(await messageFor(sut, { page: '0' })).toBe('page: must not be less than 1');
  });

  it('says a repeated limit is given more than once', async () => {
    expect(await messageFor(sut, { limit: ['1', '2'] })).toBe('limit: given more than once');
  });

  it('is a PageQueryDto, so services can accept any endpoint query', () => {
    expect(new sut()).toBeInstanceOf(PageQueryDto);
  });

  it('keeps each endpoint bounds separate', async () => {
    expect((await parse(TradesQueryDto, { limit: '1000' })).failed).toEqual([]);
    expect((await parse(sut, { limit: '1000' })).failed).toEqual(['limit']);
    expect((await parse(TradesQueryDto, { limit: '5' })).failed).toEqual(['limit']);
    expect((await parse(sut, { limit: '5' })).failed).toEqual([]);
  });

  it('documents default, minimum and maximum for Swagger', () => {
    const limit = Reflect.getMetadata(API_MODEL_PROPERTIES, sut.prototype, 'limit');
    expect(limit).toMatchObject({ required: false, type: 'integer', default: 50, minimum: 1, maximum: 500 });
    const page = Reflect.getMetadata(API_MODEL_PROPERTIES, sut.prototype, 'page');
    expect(page).toMatchObject({ required: false, type: 'integer', default: 1, minimum: 1 });
  });

  it.each([
    { defaultLimit: 0, maxLimit: 10 },
    { defaultLimit: 20, maxLimit: 10 },
    { defaultLimit: 5, maxLimit: 10, minLimit: 6 },
    { defaultLimit: 1.5, maxLimit: 10 },
  ])('refuses inconsistent bounds %j at definition time', (options) => {
    expect(() => PageQuery(options)).toThrow(/minLimit <= defaultLimit <= maxLimit/);
  });
});

describe('CursorPageQuery', () => {
  const sut = TradesQueryDto;

  it('accepts an optional cursor next to page and limit', async () => {
    const { dto, failed } = await parse(sut, { cursor: 'abc.def', limit: '10' });
    expect(failed).toEqual([]);
    expect(dto).toMatchObject({ cursor: 'abc.def', page: 1, limit: 10 });
    expect((await parse(sut, {})).dto.cursor).toBeUndefined();
  });

  it('rejects a cursor longer than 1024 characters', async () => {
    expect((await parse(sut, { cursor: 'A'.repeat(1025) })).failed).toEqual(['cursor']);
    expect((await parse(sut, { cursor: 'A'.repeat(1024) })).failed).toEqual([]);
  });

  it('rejects a repeated cursor parameter', async () => {
    expect((await parse(sut, { cursor: ['a', 'b'] })).failed).toEqual(['cursor']);
  });

  it('still applies the endpoint limit bounds', async () => {
    expect((await parse(sut, { limit: '1001' })).failed).toEqual(['limit']);
    expect((await parse(sut, {})).dto.limit).toBe(100);
  });

  it.each(['0', '-1', 'abc', '1.5'])('ignores page %j when a cursor is given, without validating it', async (page) => {
    expect((await parse(sut, { page, cursor: 'abc.def' })).failed).toEqual([]);
  });

  it.each(['0', 'abc'])('still rejects page %j naming page when no cursor is given', async (page) => {
    expect((await parse(sut, { page })).failed).toEqual(['page']);
  });

  it('applies the limit bounds with a cursor too', async () => {
    expect((await parse(sut, { page: '0', cursor: 'abc.def', limit: '5' })).failed).toEqual(['limit']);
  });

  it('mentions cursors in the page and limit docs only where a cursor exists', () => {
    const doc = (cls: object, field: string) => Reflect.getMetadata(API_MODEL_PROPERTIES, (cls as { prototype: object }).prototype, field);
    expect(doc(sut, 'page').description).toMatch(/ignored .*when a cursor is given/);
    expect(doc(sut, 'limit')).toMatchObject({ minimum: 10, maximum: 1000, default: 100, description: expect.stringMatching(/following cursors/) });
    expect(doc(HoldersQueryDto, 'page').description).not.toMatch(/cursor/);
    expect(doc(HoldersQueryDto, 'limit').description).not.toMatch(/cursor/);
  });

  it('documents page and limit as integers, as PageQuery does', () => {
    for (const field of ['page', 'limit']) {
      expect(Reflect.getMetadata(API_MODEL_PROPERTIES, sut.prototype, field)).toMatchObject({ type: 'integer', minimum: expect.any(Number) });
    }
  });

  it('documents the cursor for Swagger', () => {
    const cursor = Reflect.getMetadata(API_MODEL_PROPERTIES, sut.prototype, 'cursor');
    expect(cursor).toMatchObject({ required: false, type: 'string', maxLength: 1024 });
  });
});
