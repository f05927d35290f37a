/** What other areas may use of watchlists: the entities (for the data source) and the documented example group id. */
export { WatchlistGroupEntity } from './entities/watchlist-group.entity';
export { WatchlistEntryEntity } from './entities/watchlist-entry.entity';
export { WATCHLIST_GROUP_EXAMPLE_ID } from './watchlist-limits';
