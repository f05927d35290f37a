import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { IntegerParam, parseStrictInteger } from './integer-param.decorator';
import { validationExceptionFactory } from './validation-exception.factory';

/** Metadata key @ApiProperty writes (API_MODEL_PROPERTIES; the package exports map hides dist/constants). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

class OutcomeQueryDto {
  @IntegerParam({ min: 0, required: true, example: 3, description: 'Outcome.' })
  outcomeId!: number;

  @IntegerParam({ min: -10, max: 10, default: 0, description: 'Offset.' })
  shift: number = 0;
}

/** The envelope message the app answers, or undefined and the DTO when valid. */
async function check(query: Record<string, unknown>): Promise<{ dto: OutcomeQueryDto; message?: string }> {
  const dto = plainToInstance(OutcomeQueryDto, query);
  const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
  return { dto, message: errors.length === 0 ? undefined : validationExceptionFactory(errors).message };
}

describe(parseStrictInteger.name, () => {
  const sut = parseStrictInteger;

  it.each([
    ['0', 0],
    ['7', 7],
    ['007', 7],
    ['500', 500],
  ])('reads %j as %d', (text, value) => {
    expect(sut(text, false)).toBe(value);
  });

  it.each(['', ' 5', '5 ', '+1', '1e2', '0x10', '0b1', '0o7', '1.0', '1_000', 'Infinity', 'NaN', '-1', '٣'])('leaves %j as it is', (text) => {
    expect(sut(text, false)).toBe(text);
  });

  it('reads a leading minus only where negatives are allowed', () => {
    expect(sut('-12', true)).toBe(-12);
    expect(sut('-12', false)).toBe('-12');
    expect(sut('--12', true)).toBe('--12');
  });

  it('leaves a repeated parameter as its array', () => {
    expect(sut(['1', '2'], false)).toEqual(['1', '2']);
  });
});

describe(IntegerParam.name, () => {
  it('turns decimal digits into the number', async () => {
    const { dto, message } = await check({ outcomeId: '012', shift: '-3' });
    expect(message).toBeUndefined();
    expect(dto).toMatchObject({ outcomeId: 12, shift: -3 });
  });

  it('says a missing required parameter is required', async () => {
    expect((await check({})).message).toBe('outcomeId: is required');
  });

  it.each(['abc', '1e2', '0x10', '+1', ' 5', '', '1.5'])('says %j must be an integer', async (text) => {
    expect((await check({ outcomeId: text })).message).toBe('outcomeId: must be an integer');
  });

  it('says a negative value is negative where negatives make no sense', async () => {
    expect((await check({ outcomeId: '-1' })).message).toBe('outcomeId: must not be negative');
    expect((await check({ outcomeId: '-0' })).message).toBe('outcomeId: must not be negative');
  });

  it('says which bound an integer passes, however long its digits', async () => {
    expect((await check({ outcomeId: '0', shift: '11' })).message).toBe('shift: must not be greater than 10');
    expect((await check({ outcomeId: '0', shift: '-11' })).message).toBe('shift: must not be less than -10');
    expect((await check({ outcomeId: '9'.repeat(400) })).message).toBe(`outcomeId: must not be greater than ${Number.MAX_SAFE_INTEGER}`);
    expect((await check({ outcomeId: '9007199254740993' })).message).toBe(`outcomeId: must not be greater than ${Number.MAX_SAFE_INTEGER}`);
  });

  it('says a repeated parameter is given more than once', async () => {
    expect((await check({ outcomeId: ['1', '2'] })).message).toBe('outcomeId: given more than once');
  });

  it('documents an integer, with an example only where one is given', () => {
    const doc = (field: string) => Reflect.getMetadata(API_MODEL_PROPERTIES, OutcomeQueryDto.prototype, field);
    expect(doc('outcomeId')).toMatchObject({ type: 'integer', minimum: 0, example: 3 });
    expect(doc('outcomeId').required).not.toBe(false);
    expect(doc('outcomeId')).not.toHaveProperty('maximum');
    expect(doc('shift')).toMatchObject({ type: 'integer', required: false, minimum: -10, maximum: 10, default: 0 });
    expect(doc('shift')).not.toHaveProperty('example');
  });

  it('refuses bounds that are not safe integers in order, when the class is defined', () => {
    expect(() => IntegerParam({ min: 5, max: 1, description: '' })).toThrow(/min <= max/);
    expect(() => IntegerParam({ min: 0.5, description: '' })).toThrow(/safe integers/);
  });
});
