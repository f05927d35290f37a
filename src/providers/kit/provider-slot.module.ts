import { DynamicModule, Module, ModuleMetadata, Type } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { ProviderKind } from './provider-disabled.error';

/** The vendor name that says "no vendor", as configuration may spell it. */
export const NO_VENDOR = 'none';

/**
 * One kind of data behind one injection token: a module asks for "the market-data provider" and
 * configuration decides which vendor answers, or that none does (then every call is 503 MARKET_DATA_DISABLED).
 */
export interface ProviderSlot<T> {
  /** What modules inject: `@Inject(MARKET_DATA_PROVIDER) provider: MarketDataProvider`. */
  token: symbol;
  kind: ProviderKind;
  /** Vendor classes by the name configuration uses ('coingecko'). Each is a Nest provider of the slot's module. */
  vendors: Readonly<Record<string, Type<T>>>;
  /** The configured vendor's name; null, undefined or 'none' when none is configured or it is switched off. */
  choose: (config: ConfigService<AppConfig, true>) => string | null | undefined;
  /** What answers when no vendor does: an implementation whose every method rejects with ProviderDisabledError. */
  disabled: () => T;
  /** Modules the vendors need beyond the global ones (config, KV store). */
  imports?: ModuleMetadata['imports'];
}

/**
 * Binds a slot's token for the module that imports `ProviderSlotModule.register(MARKET_DATA_SLOT)`. Every
 * vendor is constructed (as ghostfolio does), so a vendor's constructor does no I/O and does not fail on
 * settings it lacks; only the chosen one is ever called. An unknown vendor name stops the app at startup.
 */
@Module({})
export class ProviderSlotModule {
  static register<T>(slot: ProviderSlot<T>): DynamicModule {
    const names = Object.keys(slot.vendors);
    const vendorClasses = names.map((name) => slot.vendors[name]);
    return {
      module: ProviderSlotModule,
      imports: slot.imports ?? [],
      providers: [
        ...vendorClasses,
        {
          provide: slot.token,
          inject: [ConfigService, ...vendorClasses],
          useFactory: (config: ConfigService<AppConfig, true>, ...vendors: T[]): T => chooseVendor(slot, config, vendors),
        },
      ],
      exports: [slot.token],
    };
  }
}

function chooseVendor<T>(slot: ProviderSlot<T>, config: ConfigService<AppConfig, true>, vendors: T[]): T {
  const name = slot.choose(config);
  if (!name || name === NO_VENDOR) return slot.disabled();
  const index = Object.keys(slot.vendors).indexOf(name);
  if (index < 0) throw new Error(`${slot.kind}: unknown vendor "${name}" (known: ${[...Object.keys(slot.vendors), NO_VENDOR].join(', ')})`);
  return vendors[index];
}
