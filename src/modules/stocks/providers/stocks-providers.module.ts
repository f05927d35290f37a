import { DynamicModule, Module } from '@nestjs/common';
import { DisabledEquitiesProvider, EQUITIES_PROVIDER, EquitiesProvider } from '../../../providers/equities-provider';
import { DisabledFilingsProvider, FILINGS_PROVIDER, FilingsProvider } from '../../../providers/filings-provider';
import { ProviderSlotModule } from '../../../providers/kit/provider-slot.module';
import { DisabledRwaProvider, RWA_PROVIDER, RwaProvider } from '../../../providers/rwa-provider';
import { SecEdgarClient } from '../../../providers/sec-edgar/sec-edgar.client';
import { MarketClientsModule } from '../../markets/providers/markets-providers.module';
import { CoingeckoRwa } from './coingecko-rwa';
import { SecFilings } from './sec-filings';
import { YahooEquities } from './yahoo-equities';

/** The SEC client, one instance: its per-second budget is shared by replicas through the KV store. */
@Module({ providers: [SecEdgarClient], exports: [SecEdgarClient] })
class SecClientModule {}

/**
 * The Stocks area's three provider slots, imported by the module that injects them, each vendor named by
 * configuration: equities from the vendor of stocks (MARKET_DATA_TRADFI_VENDOR), filings from
 * STOCK_FILINGS_VENDOR, tokenized assets from the crypto vendor (MARKET_DATA_CRYPTO_VENDOR); 'none' answers
 * their routes 503. The clients are the Markets area's own instances.
 */
export function stocksProviderSlots(): DynamicModule[] {
  return [
    ProviderSlotModule.register<EquitiesProvider>({
      token: EQUITIES_PROVIDER,
      kind: 'equities data',
      vendors: { yahoo: YahooEquities },
      choose: (config) => config.get('marketVendors.tradfiVendor', { infer: true }),
      disabled: () => new DisabledEquitiesProvider(),
      imports: [MarketClientsModule],
    }),
    ProviderSlotModule.register<FilingsProvider>({
      token: FILINGS_PROVIDER,
      kind: 'filings',
      vendors: { sec: SecFilings },
      choose: (config) => config.get('stockVendors.filingsVendor', { infer: true }),
      disabled: () => new DisabledFilingsProvider(),
      imports: [SecClientModule],
    }),
    ProviderSlotModule.register<RwaProvider>({
      token: RWA_PROVIDER,
      kind: 'rwa data',
      vendors: { coingecko: CoingeckoRwa },
      choose: (config) => config.get('marketVendors.cryptoVendor', { infer: true }),
      disabled: () => new DisabledRwaProvider(),
      imports: [MarketClientsModule],
    }),
  ];
}
