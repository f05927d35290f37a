import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { AddressParam, EnumParam, OrderParam, SymbolParam } from './query-fields';
import { validationExceptionFactory } from './validation-exception.factory';

/** Metadata key @ApiProperty writes (API_MODEL_PROPERTIES; the package exports map hides dist/constants). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';
const WALLET = '0x' + 'aB'.repeat(20);

class AssetQueryDto {
  @SymbolParam({ description: 'Asset symbol.', example: 'BTC', rule: 'Matched ignoring case.' })
  symbol!: string;

  @OrderParam('Largest first by default.')
  order: string = 'desc';

  @EnumParam(['1h', '24h'], '1h', 'Window.')
  window: string = '1h';

  @AddressParam('Only this wallet.')
  address?: string;
}

/** The envelope message the app answers, or undefined when the query is valid. */
async function messageFor(query: Record<string, unknown>): Promise<string | undefined> {
  const errors = await validate(plainToInstance(AssetQueryDto, query), { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
  return errors.length === 0 ? undefined : validationExceptionFactory(errors).message;
}

describe('query fields', () => {
  const doc = (field: string) => Reflect.getMetadata(API_MODEL_PROPERTIES, AssetQueryDto.prototype, field);

  it('accepts a query that spells every field as documented', async () => {
    expect(await messageFor({ symbol: 'btc', order: 'asc', window: '24h', address: WALLET })).toBeUndefined();
  });

  it('requires a non-empty symbol of at most 64 characters', async () => {
    expect(await messageFor({})).toBe('symbol: is required');
    expect(await messageFor({ symbol: '' })).toBe('symbol: should not be empty');
    expect(await messageFor({ symbol: 'X'.repeat(64) })).toBeUndefined();
    expect(await messageFor({ symbol: 'X'.repeat(65) })).toBe('symbol: must be shorter than or equal to 64 characters');
  });

  it('documents the symbol with the area rule after its description, and an example to try', () => {
    expect(doc('symbol')).toMatchObject({ description: 'Asset symbol. Matched ignoring case.', example: 'BTC', maxLength: 64 });
    expect(doc('symbol').required).not.toBe(false);
  });

  it('takes the order and enum values exactly as spelled', async () => {
    expect(await messageFor({ symbol: 'BTC', order: 'DESC' })).toBe('order: must be one of the following values: desc, asc');
    expect(await messageFor({ symbol: 'BTC', window: '1H' })).toBe('window: must be one of the following values: 1h, 24h');
  });

  it('documents the closed sets with their defaults', () => {
    expect(doc('order')).toMatchObject({ enum: ['desc', 'asc'], default: 'desc', required: false });
    expect(doc('window')).toMatchObject({ enum: ['1h', '24h'], default: '1h', required: false });
  });

  it('takes a wallet address in any case, and refuses anything but 0x and 40 hex digits', async () => {
    expect(await messageFor({ symbol: 'BTC', address: WALLET.toUpperCase().replace('0X', '0x') })).toBeUndefined();
    for (const address of [WALLET.slice(0, -1), `${WALLET}0`, WALLET.replace('0x', '0X'), `0x${'g'.repeat(40)}`]) {
      expect(await messageFor({ symbol: 'BTC', address })).toBe('address: must be a 42-character 0x-prefixed hex address');
    }
  });

  it('documents the address pattern without an example, so "Try it out" does not send one', () => {
    expect(doc('address')).toMatchObject({ pattern: '^0x[0-9a-fA-F]{40}$', required: false });
    expect(doc('address')).not.toHaveProperty('example');
    expect(doc('address').description).toBe('Only this wallet. 42-character 0x-prefixed hex wallet, case-insensitive.');
  });
});
