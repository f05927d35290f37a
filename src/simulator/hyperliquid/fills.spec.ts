import { SimWorld } from '../world/sim-world';
import { PerpSlot, WalletProfile } from '../world/wallet-model';
import { fillBody, walletFills } from './fills';

const DAY_MS = 86_400_000;
const T0 = Date.UTC(2026, 0, 15, 12);
/** Fees are written to 6 decimals: compare them in whole micro-USDC. */
const micro = (decimal: unknown) => Math.round(Number(decimal) * 1e6);

type WireFill = Record<string, unknown>;

describe(fillBody.name, () => {
  let world: SimWorld;
  let wallet: WalletProfile;
  beforeAll(() => {
    world = new SimWorld({ wallets: 100, seed: 3 });
    const index = world.addresses.findIndex((_, i) => {
      const perps = world.wallet(i).perps;
      return perps.some((slot) => slot.builder) && perps.some((slot) => !slot.builder);
    });
    wallet = world.wallet(index);
  });

  /** The wire fills of a wallet holding only `slot`, over a week. */
  const fillsOf = (slot: PerpSlot): WireFill[] =>
    walletFills(world.prices, { ...wallet, perps: [slot], outcome: null }, T0 - 7 * DAY_MS, T0).map((fill) => fillBody(fill) as WireFill);

  it('includes the builder fee in fee: fee = exchange fee + builderFee, builderFee = px × sz × f / 100,000', () => {
    const slot = wallet.perps.find((candidate) => candidate.builder)!;
    const built = fillsOf(slot);
    const plain = fillsOf({ ...slot, builder: null });
    expect(built.length).toBeGreaterThan(0);
    built.forEach((fill, k) => {
      const expected = (Number(fill.px) * Number(fill.sz) * slot.builder!.f) / 100_000;
      // Written to the micro-USDC: off by at most half a micro.
      expect(Math.abs(micro(fill.builderFee) - expected * 1e6)).toBeLessThanOrEqual(0.5 + 1e-6);
      expect(micro(fill.fee)).toBe(micro(plain[k].fee) + micro(fill.builderFee));
      expect({ ...fill, fee: plain[k].fee, builderFee: undefined }).toEqual({ ...plain[k], builderFee: undefined });
    });
  });

  it('omits builderFee when no builder was paid: no builder code, or a zero fee', () => {
    const slot = wallet.perps.find((candidate) => candidate.builder)!;
    const unbuilt = fillsOf(wallet.perps.find((candidate) => !candidate.builder)!);
    const zeroRate = fillsOf({ ...slot, builder: { b: slot.builder!.b, f: 0 } });
    expect(unbuilt.length).toBeGreaterThan(0);
    for (const fill of [...unbuilt, ...zeroRate]) expect(fill).not.toHaveProperty('builderFee');
    expect(zeroRate.map((fill) => fill.fee)).toEqual(fillsOf({ ...slot, builder: null }).map((fill) => fill.fee));
  });

  it('never puts a builder on an outcome fill', () => {
    const holder = world.addresses.map((_, i) => world.wallet(i)).find((candidate) => candidate.outcome !== null)!;
    const fills = walletFills(world.prices, { ...holder, perps: [] }, T0 - 7 * DAY_MS, T0);
    expect(fills.length).toBeGreaterThan(0);
    for (const fill of fills) expect([fill.builder, fill.builderFee]).toEqual([null, null]);
  });
});
