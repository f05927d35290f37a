import { Module } from '@nestjs/common';
import { UpstreamCacheFactory } from './upstream-cache';

/** The upstream cache for an area's on-demand reads; the KV store is global, so nothing else is imported. */
@Module({
  providers: [UpstreamCacheFactory],
  exports: [UpstreamCacheFactory],
})
export class UpstreamCacheModule {}
