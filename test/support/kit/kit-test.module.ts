import { ApiExcludeController } from '@nestjs/swagger';
import { DynamicModule, Get, Inject, Injectable, Module, OnModuleDestroy, Param } from '@nestjs/common';
import { KV_STORE, KvStore } from '../../../src/infra/kv/kv-store';
import { PublicApiController, PublicEndpoint } from '../../../src/modules/access/public-endpoint.decorator';
import { refuseAs } from '../../../src/providers/kit/provider-disabled.error';
import { ProviderSlotModule } from '../../../src/providers/kit/provider-slot.module';
import { RequestBudget } from '../../../src/providers/kit/request-budget';
import { SchemaReader } from '../../../src/providers/kit/schema-reader';
import { UpstreamCache, UpstreamCacheFactory } from '../../../src/providers/kit/upstream-cache';
import { UpstreamCacheModule } from '../../../src/providers/kit/upstream-cache.module';
import { UpstreamHttpClient } from '../../../src/providers/kit/upstream-http.client';

/** A tiny kind of data for the kit's tests: one price per symbol. */
interface PriceProvider {
  readonly name: string;
  getPrice(params: { symbol: string; signal?: AbortSignal }): Promise<{ symbol: string; price: string }>;
}

const PRICE_PROVIDER = Symbol('PRICE_PROVIDER');
export const STUB_PROVIDER = 'stub-prices';
const { asObject } = new SchemaReader(STUB_PROVIDER);

export interface KitTestSettings {
  /** The stub upstream's base URL. */
  upstreamUrl: string;
  /** 'stub' serves prices from the stub; 'none' switches the provider off. */
  vendor: 'stub' | 'none';
  timeoutMs: number;
  freshTtlMs: number;
}

const KIT_TEST_SETTINGS = Symbol('KIT_TEST_SETTINGS');

@Injectable()
class StubPriceProvider implements PriceProvider, OnModuleDestroy {
  readonly name = STUB_PROVIDER;
  private readonly http: UpstreamHttpClient;

  constructor(
    @Inject(KV_STORE) kv: KvStore,
    @Inject(KIT_TEST_SETTINGS) private readonly settings: KitTestSettings,
  ) {
    const budget = new RequestBudget({ kv, provider: STUB_PROVIDER, weightPerWindow: 1_000, windowMs: 60_000 });
    this.http = new UpstreamHttpClient({
      provider: STUB_PROVIDER,
      timeoutMs: settings.timeoutMs,
      maxRetries: 1,
      budget,
      maxBudgetWaitMs: 0,
      sleep: async () => undefined,
    });
  }

  onModuleDestroy(): void {
    this.http.close();
  }

  getPrice({ symbol, signal }: { symbol: string; signal?: AbortSignal }) {
    return this.http.request({
      label: 'price',
      url: `${this.settings.upstreamUrl}/prices/${encodeURIComponent(symbol)}`,
      signal,
      parse: (body) => {
        const fields = asObject(body, 'price');
        return { symbol: fields.string('symbol'), price: fields.decimal('price') };
      },
    });
  }
}

class DisabledPriceProvider implements PriceProvider {
  readonly name = 'none';
  getPrice = refuseAs('market data');
}

@Injectable()
class KitTestService {
  private readonly cache: UpstreamCache;

  constructor(
    @Inject(PRICE_PROVIDER) private readonly prices: PriceProvider,
    @Inject(KIT_TEST_SETTINGS) settings: KitTestSettings,
    caches: UpstreamCacheFactory,
  ) {
    this.cache = caches.create({ name: 'kit-test.prices', freshTtlMs: settings.freshTtlMs });
  }

  price(symbol: string) {
    return this.cache.get(symbol, () => this.prices.getPrice({ symbol }));
  }
}

// A test fixture, not part of the product: kept out of the served document (and so out of its response checks).
@ApiExcludeController()
@PublicApiController('kit-test', 'Kit test')
class KitTestController {
  constructor(private readonly service: KitTestService) {}

  @Get('prices/:symbol')
  @PublicEndpoint('markets.asset', 'A price from the stub upstream', { query: false })
  price(@Param('symbol') symbol: string) {
    return this.service.price(symbol);
  }
}

@Module({})
class KitTestSettingsModule {}

/** A test-only public route over a test-only provider slot, cached as the real areas will be. */
@Module({})
export class KitTestModule {
  static register(settings: KitTestSettings): DynamicModule {
    return {
      module: KitTestModule,
      imports: [
        { module: KitTestSettingsModule, global: true, providers: [{ provide: KIT_TEST_SETTINGS, useValue: settings }], exports: [KIT_TEST_SETTINGS] },
        UpstreamCacheModule,
        ProviderSlotModule.register<PriceProvider>({
          token: PRICE_PROVIDER,
          kind: 'market data',
          vendors: { stub: StubPriceProvider },
          choose: () => settings.vendor,
          disabled: () => new DisabledPriceProvider(),
        }),
      ],
      controllers: [KitTestController],
      providers: [KitTestService],
    };
  }
}
