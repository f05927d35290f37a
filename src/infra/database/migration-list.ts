import { PlatformSpine1763700000000 } from './migrations/1763700000000-platform-spine';
import { HlSnapshots1763800000000 } from './migrations/1763800000000-hl-snapshots';
import { HolderTags1763900000000 } from './migrations/1763900000000-holder-tags';
import { LedgerDrainFence1764000000000 } from './migrations/1764000000000-ledger-drain-fence';
import { LedgerWithoutAccountFk1764100000000 } from './migrations/1764100000000-ledger-without-account-fk';
import { LedgerReferenceIndex1764200000000 } from './migrations/1764200000000-ledger-reference-index';
import { LedgerReferenceUuid1764300000000 } from './migrations/1764300000000-ledger-reference-uuid';
import { LedgerAccountPrimaryKey1764400000000 } from './migrations/1764400000000-ledger-account-primary-key';
import { RetentionIndexes1764500000000 } from './migrations/1764500000000-retention-indexes';
import { AddressFullRead1764600000000 } from './migrations/1764600000000-address-full-read';
import { UsageMeterSyncs1764700000000 } from './migrations/1764700000000-usage-meter-syncs';
import { MarketsCatalogue1764800000000 } from './migrations/1764800000000-markets-catalogue';
import { News1764900000000 } from './migrations/1764900000000-news';
import { ApiKeyNames1765000000000 } from './migrations/1765000000000-api-key-names';
import { UsageDaily1765000000001 } from './migrations/1765000000001-usage-daily';
import { Watchlists1765100000000 } from './migrations/1765100000000-watchlists';
import { Notifications1765100000001 } from './migrations/1765100000001-notifications';
import { Cohorts1765100000002 } from './migrations/1765100000002-cohorts';
import { HlMarketsFunding1765100000003 } from './migrations/1765100000003-hl-markets-funding';
import { Economy1765200000000 } from './migrations/1765200000000-economy';
import { HlFeedReads1765300000000 } from './migrations/1765300000000-hl-feed-reads';
import { CreditsInPostgres1765400000000 } from './migrations/1765400000000-credits-in-postgres';

/** Listed explicitly (not globbed) so ts-node, jest and the built service all load the same set. */
export const MIGRATIONS = [
  PlatformSpine1763700000000,
  HlSnapshots1763800000000,
  HolderTags1763900000000,
  LedgerDrainFence1764000000000,
  LedgerWithoutAccountFk1764100000000,
  LedgerReferenceIndex1764200000000,
  LedgerReferenceUuid1764300000000,
  LedgerAccountPrimaryKey1764400000000,
  RetentionIndexes1764500000000,
  AddressFullRead1764600000000,
  UsageMeterSyncs1764700000000,
  MarketsCatalogue1764800000000,
  News1764900000000,
  ApiKeyNames1765000000000,
  UsageDaily1765000000001,
  Watchlists1765100000000,
  Notifications1765100000001,
  Cohorts1765100000002,
  HlMarketsFunding1765100000003,
  Economy1765200000000,
  HlFeedReads1765300000000,
  CreditsInPostgres1765400000000,
];
