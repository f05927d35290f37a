import { SimWorld } from '../world/sim-world';
import { HyperliquidMarket } from './hyperliquid-market';

describe('simulated outcomeMeta', () => {
  const sut = new HyperliquidMarket(new SimWorld({ wallets: 2 }));

  it('gives every outcome its own name', () => {
    const { outcomes } = sut.outcomeMeta() as { outcomes: Array<{ outcome: number; name: string }> };
    const names = outcomes.map((o) => o.name);
    expect(outcomes.length).toBeGreaterThan(1);
    expect(new Set(names).size).toBe(names.length);
    expect(names.every((name) => name.trim().length > 0)).toBe(true);
  });

  it('numbers the outcomes densely from 0, as the outcome coins #<10 x outcome + side> expect', () => {
    const { outcomes } = sut.outcomeMeta() as { outcomes: Array<{ outcome: number }> };
    expect(outcomes.map((o) => o.outcome)).toEqual(outcomes.map((_, i) => i));
  });
});
