export const POINTS_BUCKETS = ['perp', 'spot'] as const;
export type PointsBucket = (typeof POINTS_BUCKETS)[number];
export type PointsRole = 'taker' | 'maker';

/**
 * Raw points per USD of volume, by bucket and role: a taker pays the spread and the builder fee that funds
 * the programme, so it earns twice what a maker does; spot volume is thinner, so it earns double.
 * rawPoints = floor(volumeUsd × rate); points = rawPoints × the VIP multiplier frozen at fill time.
 */
export const POINTS_PER_USD: Record<PointsBucket, Record<PointsRole, string>> = {
  perp: { taker: '0.1', maker: '0.05' },
  spot: { taker: '0.2', maker: '0.1' },
};
