import { Module } from '@nestjs/common';
import { HyperliquidInfoClient } from './hyperliquid-info.client';

/** The Hyperliquid info client; KvModule and ConfigModule are global, so nothing else is imported. */
@Module({
  providers: [HyperliquidInfoClient],
  exports: [HyperliquidInfoClient],
})
export class HyperliquidModule {}
