/** Groups one account may own: enough for any desk, few enough to list without paging in the portal. */
export const MAX_GROUPS_PER_ACCOUNT = 20;
/** Coins in one group. */
export const MAX_ENTRIES_PER_GROUP = 200;
export const MAX_GROUP_NAME_LENGTH = 64;
/** The documented example group id; the OpenAPI property run seeds a group under it so the route answers 200. */
export const WATCHLIST_GROUP_EXAMPLE_ID = '5b7c2e9a-3f41-4d8e-9a6b-0c1d2e3f4a5b';
