import { DynamicModule, Module } from '@nestjs/common';
import { BinanceKlinesClient } from '../../../providers/binance/binance-klines.client';
import { CoingeckoClient } from '../../../providers/coingecko/coingecko.client';
import { ProviderSlot, ProviderSlotModule } from '../../../providers/kit/provider-slot.module';
import { UpstreamCacheModule } from '../../../providers/kit/upstream-cache.module';
import { DisabledMarketDataProvider, MARKET_DATA_PROVIDER, MarketDataProvider } from '../../../providers/market-data-provider';
import { YahooFinanceClient } from '../../../providers/yahoo/yahoo-finance.client';
import { CoingeckoMarketData } from './coingecko-market-data';
import { MarketDataRouter } from './market-data-router';
import { YahooMarketData } from './yahoo-market-data';

const CRYPTO_MARKET_DATA = Symbol('CRYPTO_MARKET_DATA');
const TRADFI_MARKET_DATA = Symbol('TRADFI_MARKET_DATA');

/** The vendor clients, one instance each, shared by every slot that uses them (Markets' and Stocks'). */
@Module({
  imports: [UpstreamCacheModule],
  providers: [CoingeckoClient, BinanceKlinesClient, YahooFinanceClient],
  exports: [CoingeckoClient, BinanceKlinesClient, YahooFinanceClient, UpstreamCacheModule],
})
export class MarketClientsModule {}

function marketDataSlot(
  token: symbol,
  vendors: ProviderSlot<MarketDataProvider>['vendors'],
  choose: ProviderSlot<MarketDataProvider>['choose'],
): ProviderSlot<MarketDataProvider> {
  return { token, kind: 'market data', vendors, choose, disabled: () => new DisabledMarketDataProvider(), imports: [MarketClientsModule] };
}

/**
 * Binds MARKET_DATA_PROVIDER to a MarketDataRouter over two provider slots, crypto and the other types,
 * each vendor named by configuration (MARKET_DATA_CRYPTO_VENDOR, MARKET_DATA_TRADFI_VENDOR; 'none' switches
 * a group off). The router itself is a
 * plain factory: a slot binds one vendor, and the router needs one per group of asset types.
 */
@Module({})
export class MarketsProvidersModule {
  static register(): DynamicModule {
    return {
      module: MarketsProvidersModule,
      imports: [
        ProviderSlotModule.register(
          marketDataSlot(CRYPTO_MARKET_DATA, { coingecko: CoingeckoMarketData }, (config) => config.get('marketVendors.cryptoVendor', { infer: true })),
        ),
        ProviderSlotModule.register(
          marketDataSlot(TRADFI_MARKET_DATA, { yahoo: YahooMarketData }, (config) => config.get('marketVendors.tradfiVendor', { infer: true })),
        ),
      ],
      providers: [
        {
          provide: MARKET_DATA_PROVIDER,
          inject: [CRYPTO_MARKET_DATA, TRADFI_MARKET_DATA],
          useFactory: (crypto: MarketDataProvider, tradfi: MarketDataProvider) => new MarketDataRouter([crypto, tradfi]),
        },
      ],
      exports: [MARKET_DATA_PROVIDER],
    };
  }
}
