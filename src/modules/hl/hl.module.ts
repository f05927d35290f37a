import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { RankPager } from '../../common/pagination/rank-pager';
import { AppConfig } from '../../config/app.config';
import { HlCatalogService } from './hl-catalog.service';
import { HlHoldersController } from './hl-holders.controller';
import { HlHoldersRepository } from './hl-holders.repository';
import { HlHoldersService } from './hl-holders.service';
import { HlLeaderboardRepository } from './hl-leaderboard.repository';
import { HlLeaderboardService } from './hl-leaderboard.service';
import { HlMarketController } from './hl-market.controller';
import { HlMarketService } from './hl-market.service';
import { HlMarketsRepository } from './hl-markets.repository';
import { HlSmartTradersRepository } from './hl-smart-traders.repository';
import { HlSmartTradersService } from './hl-smart-traders.service';
import { HlTradersController } from './hl-traders.controller';
import { HlTrendingRepository } from './hl-trending.repository';
import { HlVenueService } from './hl-venue.service';
import { HlSnapshotModule } from './snapshot/hl-snapshot.module';

/** Exchange-chain analytics (/hl): read side over the published snapshots and the polled market tables; Markets reads Hyperliquid as a venue through HlVenueService. */
@Module({
  controllers: [HlHoldersController, HlMarketController, HlTradersController],
  imports: [HlSnapshotModule],
  providers: [
    {
      provide: CursorCodec,
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => new CursorCodec(config.get('security.cursorSecret', { infer: true })),
    },
    RankPager,
    HlCatalogService,
    HlMarketsRepository,
    HlHoldersRepository,
    HlLeaderboardRepository,
    HlTrendingRepository,
    HlSmartTradersRepository,
    HlHoldersService,
    HlLeaderboardService,
    HlMarketService,
    HlSmartTradersService,
    HlVenueService,
  ],
  exports: [HlCatalogService, HlVenueService],
})
export class HlModule {}
