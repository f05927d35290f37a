import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { validationExceptionFactory } from '../../../common/validation/validation-exception.factory';
import { PerpHoldersQueryDto } from './holders.query.dto';
import { Hip4SmartTraderQueryDto } from './smart-trader.query.dto';

async function messageFor<T extends object>(cls: new () => T, query: Record<string, unknown>): Promise<string | undefined> {
  const errors = await validate(plainToInstance(cls, query), { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
  return errors.length === 0 ? undefined : validationExceptionFactory(errors).message;
}

describe('hl query fields', () => {
  // A repeated coin is refused before the DTO, by the validation pipe (query-shape.ts).
  it('says a missing coin is required', async () => {
    expect(await messageFor(PerpHoldersQueryDto, {})).toBe('coin: is required');
    expect(await messageFor(PerpHoldersQueryDto, { coin: 'BTC' })).toBeUndefined();
  });

  it('reads outcomeId as a strict integer', async () => {
    expect(await messageFor(Hip4SmartTraderQueryDto, {})).toBe('outcomeId: is required');
    expect(await messageFor(Hip4SmartTraderQueryDto, { outcomeId: '0x1' })).toBe('outcomeId: must be an integer');
    expect(plainToInstance(Hip4SmartTraderQueryDto, { outcomeId: '02' }).outcomeId).toBe(2);
  });
});
