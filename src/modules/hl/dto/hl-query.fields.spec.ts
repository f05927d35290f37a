import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { validationExceptionFactory } from '../../../common/validation/validation-exception.factory';
import { PerpHoldersQueryDto } from './holders.query.dto';
import { Hip4SmartTraderQueryDto } from './smart-trader.query.dto';

/** Metadata key @ApiProperty writes (API_MODEL_PROPERTIES; the package exports map hides dist/constants). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

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

  it('gives the optional address filter no example for Swagger UI to send', () => {
    const address = Reflect.getMetadata(API_MODEL_PROPERTIES, PerpHoldersQueryDto.prototype, 'address');
    expect(address).toMatchObject({ required: false, pattern: expect.any(String) });
    expect(address).not.toHaveProperty('example');
    expect(Reflect.getMetadata(API_MODEL_PROPERTIES, PerpHoldersQueryDto.prototype, 'coin')).toMatchObject({ example: 'BTC' });
  });
});
