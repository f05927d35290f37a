import { Injectable, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { ErrorCode } from '../../common/errors/error-code';
import { DisabledMarketDataProvider, MarketDataProvider } from '../market-data-provider';
import { ProviderDisabledError } from './provider-disabled.error';
import { ProviderSlotModule } from './provider-slot.module';

interface Greeter {
  readonly name: string;
  greet(): Promise<string>;
}
const GREETER = Symbol('GREETER');

@Injectable()
class EnglishGreeter implements Greeter {
  readonly name = 'english';
  greet = async () => 'hello';
}

@Injectable()
class FrenchGreeter implements Greeter {
  readonly name = 'french';
  greet = async () => 'bonjour';
}

async function greeterFor(vendor: string | undefined): Promise<Greeter> {
  const slot = ProviderSlotModule.register<Greeter>({
    token: GREETER,
    kind: 'news analysis',
    vendors: { english: EnglishGreeter, french: FrenchGreeter },
    choose: (config) => (config as unknown as { get(key: string): string | undefined }).get('greeter'),
    disabled: () => ({ name: 'none', greet: () => Promise.reject(new ProviderDisabledError('news analysis')) }),
  });
  @Module({ imports: [slot] })
  class AreaModule {}
  const moduleRef = await Test.createTestingModule({
    imports: [ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => ({ greeter: vendor })] }), AreaModule],
  }).compile();
  return moduleRef.get<Greeter>(GREETER);
}

describe(ProviderSlotModule.name, () => {
  it('binds the token to the vendor configuration names', async () => {
    expect(await (await greeterFor('french')).greet()).toBe('bonjour');
    expect(await (await greeterFor('english')).greet()).toBe('hello');
  });

  it.each([undefined, 'none'])('binds the disabled implementation when the vendor is %s', async (vendor) => {
    const sut = await greeterFor(vendor);
    expect(sut.name).toBe('none');
    await expect(sut.greet()).rejects.toBeInstanceOf(ProviderDisabledError);
  });

  it('refuses to start with a vendor it does not know', async () => {
    await expect(greeterFor('klingon')).rejects.toThrow('news analysis: unknown vendor "klingon" (known: english, french, none)');
  });
});

describe(DisabledMarketDataProvider.name, () => {
  it('rejects every call as MARKET_DATA_DISABLED', async () => {
    const sut: MarketDataProvider = new DisabledMarketDataProvider();
    const calls = [
      sut.getQuotes({ sourceIds: ['bitcoin'] }),
      sut.listQuotes({ type: 'CRYPTO', page: 1, perPage: 10 }),
      sut.getCandles({ sourceId: 'bitcoin', interval: 'H1', limit: 10 }),
      sut.getTickers({ sourceId: 'bitcoin' }),
      sut.getGlobalStats({}),
      sut.listCatalogue({ type: 'CRYPTO' }),
      sut.search({ query: 'bit' }),
    ];
    const settled = await Promise.allSettled(calls);
    expect(settled.map((s) => (s.status === 'rejected' ? (s.reason as ProviderDisabledError).code : 'fulfilled'))).toEqual(
      Array(7).fill(ErrorCode.MARKET_DATA_DISABLED),
    );
  });
});
