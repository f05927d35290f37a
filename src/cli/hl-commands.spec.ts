import { INestApplicationContext } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { HlAddressesRepository } from '../modules/hl/jobs/hl-addresses.repository';
import type { CommandArgs } from './commands';
import { HL_COMMANDS } from './hl-commands';

const args = (values: Partial<CommandArgs>) => values as CommandArgs;

/** An application context whose only provider is a fake address repository. */
function appWith(upsertAddresses: jest.Mock): INestApplicationContext {
  return {
    get: (token: unknown) => {
      if (token !== HlAddressesRepository) throw new Error(`unexpected provider ${String(token)}`);
      return { upsertAddresses };
    },
  } as unknown as INestApplicationContext;
}

describe('address:add', () => {
  const sut = HL_COMMANDS['address:add'];

  it.each(['0x1234', 'not-an-address', '0x' + 'g'.repeat(40)])('names the address option for %j, and writes nothing', async (address) => {
    const upsertAddresses = jest.fn();
    const run = sut.run(appWith(upsertAddresses), args({ address }));
    await expect(run).rejects.toThrow(AppError);
    await expect(run).rejects.toThrow(/^address: must be a 42-character 0x-prefixed address$/);
    expect(upsertAddresses).not.toHaveBeenCalled();
  });

  it('adds a valid address lowercased, with its tags', async () => {
    const upsertAddresses = jest.fn(async () => undefined);
    const address = '0x' + 'AB'.repeat(20);

    const output = await sut.run(appWith(upsertAddresses), args({ address, tags: 'whale, desk-a' }));

    expect(upsertAddresses).toHaveBeenCalledWith({ addresses: [address.toLowerCase()], source: 'operator', tags: ['whale', 'desk-a'] });
    expect(output.json).toEqual({ address: address.toLowerCase(), tags: ['whale', 'desk-a'] });
  });
});
