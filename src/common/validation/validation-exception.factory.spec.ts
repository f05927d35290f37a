import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, ValidateNested, ValidationError, validate } from 'class-validator';
import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-code';
import { validationExceptionFactory } from './validation-exception.factory';

class FilterDto {
  @IsString()
  coin: string;
}

class SearchQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => FilterDto)
  filter?: FilterDto;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => FilterDto)
  filters?: FilterDto[];
}

/** The errors the global ValidationPipe hands to its exceptionFactory (same options as app.setup.ts). */
async function errorsFor(query: Record<string, unknown>): Promise<ValidationError[]> {
  return validate(plainToInstance(SearchQueryDto, query), { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
}

describe(validationExceptionFactory.name, () => {
  const sut = validationExceptionFactory;

  it('answers a VALIDATION_ERROR AppError', async () => {
    const error = sut(await errorsFor({ limit: '0' }));

    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe(ErrorCode.VALIDATION_ERROR);
  });

  it('puts the field first, as `field: problem`', async () => {
    expect(sut(await errorsFor({ limit: '0' })).message).toBe('limit: must not be less than 1');
    expect(sut(await errorsFor({ limit: '1.5' })).message).toBe('limit: must be an integer number');
  });

  it('names a nested field by its dotted path', async () => {
    expect(sut(await errorsFor({ filter: { coin: 7 } })).message).toBe('filter.coin: must be a string');
  });

  it('names an array element by its index in the dotted path', async () => {
    expect(sut(await errorsFor({ filters: [{ coin: 'BTC' }, { coin: 7 }] })).message).toBe('filters.1.coin: must be a string');
  });

  it('says an unknown property is not a known parameter', async () => {
    expect(sut(await errorsFor({ x: '1' })).message).toBe('x: is not a known parameter');
  });

  it('says an unknown nested property is not a known parameter, with its path', async () => {
    expect(sut(await errorsFor({ filter: { coin: 'BTC', extra: 1 } })).message).toBe('filter.extra: is not a known parameter');
  });

  it('says an unknown property is not a known parameter when its name has spaces or is empty', async () => {
    expect(sut(await errorsFor({ 'a b': '1' })).message).toBe('a b: is not a known parameter');
    expect(sut(await errorsFor({ '': '1' })).message).toBe('query: is not a known parameter');
  });

  it('reports only the first failing field', () => {
    const errors = [
      Object.assign(new ValidationError(), { property: 'limit', constraints: { min: 'limit must not be less than 1' }, children: [] }),
      Object.assign(new ValidationError(), { property: 'page', constraints: { min: 'page must not be less than 1' }, children: [] }),
    ];

    expect(sut(errors).message).toBe('limit: must not be less than 1');
  });

  it('keeps a message that does not start with the property name as it is', () => {
    const error = Object.assign(new ValidationError(), { property: 'cursor', constraints: { isCursor: 'malformed token' }, children: [] });

    expect(sut([error]).message).toBe('cursor: malformed token');
  });

  it('falls back to `request: is invalid` when no error carries a message', () => {
    expect(sut([]).message).toBe('request: is invalid');
    expect(sut([Object.assign(new ValidationError(), { property: 'a', children: [] })]).message).toBe('request: is invalid');
  });
});
