import { LIQUIDATION_BINS, liquidationRange, toHeatmap } from './liquidation-heatmap';

describe(toHeatmap.name, () => {
  it('spans [0.5 × mark, 1.5 × mark] in 40 equal bins, empty ones included', () => {
    const sut = toHeatmap({ coin: 'BTC', markPx: '400', rows: [] });

    expect(sut).toHaveLength(LIQUIDATION_BINS);
    expect(sut[0]).toEqual({
      coin: 'BTC',
      priceBinIndex: 0,
      priceBinStart: 200,
      priceBinEnd: 210,
      liquidationValue: 0,
      positionsCount: 0,
      mostImpactedSegment: 0,
    });
    expect(sut[39]).toEqual(expect.objectContaining({ priceBinIndex: 39, priceBinStart: 590, priceBinEnd: 600 }));
  });

  it('places the aggregated rows at their bin index', () => {
    const sut = toHeatmap({
      coin: 'xyz:TSLA',
      markPx: '400',
      rows: [{ bin: 3, liquidation_value: '123456.5', positions_count: 4, most_impacted_segment: 3 }],
    });

    expect(sut[3]).toEqual(expect.objectContaining({ liquidationValue: 123456.5, positionsCount: 4, mostImpactedSegment: 3 }));
    expect(sut.filter((bin) => bin.positionsCount > 0)).toHaveLength(1);
  });

  it('keeps bin edges exact for marks that are not round', () => {
    const sut = toHeatmap({ coin: 'ETH', markPx: '3333.3', rows: [] });

    expect(liquidationRange('3333.3')).toEqual({ low: '1666.65', high: '4999.95' });
    expect(sut[0].priceBinStart).toBe(1666.65);
    expect(sut[39].priceBinEnd).toBe(4999.95);
  });
});
