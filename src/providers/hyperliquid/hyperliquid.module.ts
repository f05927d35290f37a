import { Module } from '@nestjs/common';
import { BUILDER_FILLS_SOURCE } from './builder-fills-source';
import { HyperliquidBuilderFillsClient } from './hyperliquid-builder-fills.client';
import { HyperliquidInfoClient } from './hyperliquid-info.client';

/**
 * The Hyperliquid info client, and the builder fills behind BUILDER_FILLS_SOURCE (so a test or another
 * source can stand in for it); KvModule and ConfigModule are global, so nothing else is imported.
 */
@Module({
  providers: [HyperliquidInfoClient, HyperliquidBuilderFillsClient, { provide: BUILDER_FILLS_SOURCE, useExisting: HyperliquidBuilderFillsClient }],
  exports: [HyperliquidInfoClient, BUILDER_FILLS_SOURCE],
})
export class HyperliquidModule {}
