import { Module } from '@nestjs/common';
import { HlModule } from '../hl/hl.module';
import { MarketsCatalogueModule } from '../markets/markets-catalogue.module';
import { WatchlistBackendController } from './watchlist-backend.controller';
import { WatchlistCoinsService } from './watchlist-coins.service';
import { WatchlistPublicController } from './watchlist-public.controller';
import { WatchlistRepository } from './watchlist.repository';
import { WatchlistService } from './watchlist.service';

/** Watchlists (contract 4.6, 5.2): written through the wallet session, read through the account's keys. */
@Module({
  imports: [HlModule, MarketsCatalogueModule],
  controllers: [WatchlistBackendController, WatchlistPublicController],
  providers: [WatchlistRepository, WatchlistCoinsService, WatchlistService],
  exports: [WatchlistRepository],
})
export class WatchlistModule {}
