import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from './kv-store';
import { MemoryKvStore } from './memory-kv.store';
import { RedisKvStore } from './redis-kv.store';

/** Redis when REDIS_URL is set; otherwise the in-process store of the embedded default. */
@Global()
@Module({
  providers: [
    {
      provide: KV_STORE,
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>): KvStore => {
        const { url, keyPrefix, autoPipelining, commandTimeoutMs } = config.get('redis', { infer: true });
        if (url) return RedisKvStore.connect(url, keyPrefix, { autoPipelining, commandTimeoutMs });
        new Logger('KvModule').warn('REDIS_URL not set: using the in-process store (one replica only)');
        return new MemoryKvStore();
      },
    },
  ],
  exports: [KV_STORE],
})
export class KvModule implements OnApplicationShutdown {
  constructor(@Inject(KV_STORE) private readonly kv: KvStore) {}

  async onApplicationShutdown() {
    await this.kv.close();
  }
}
