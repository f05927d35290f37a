/** The `order` of a ranked list: desc (largest first, the default everywhere) or asc, exactly as spelled. */
export const SORT_ORDERS = ['desc', 'asc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
