/** What one account may hold: enough for a desk's books, small enough that a cohort reads in one page. */
export const MAX_COHORTS_PER_ACCOUNT = 20;
export const MAX_ADDRESSES_PER_COHORT = 500;
export const MAX_COHORT_NAME_LENGTH = 64;
export const MAX_TAGS_PER_ADDRESS = 8;
export const TAG_PATTERN = /^[A-Za-z0-9_.:-]{1,32}$/;
