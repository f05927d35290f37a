import { Wallet } from 'ethers';
import { signInWallets } from './sign-in-wallets';
import { SimWorld } from './world/sim-world';

const SEED = 5;
const WALLETS = 60;

describe(signInWallets.name, () => {
  let world: SimWorld;
  beforeAll(() => {
    world = new SimWorld({ wallets: WALLETS, seed: SEED });
  });

  it("gives keys from which ethers derives the printed addresses, the world's traders", () => {
    const sut = signInWallets(world, 10);
    expect(sut).toHaveLength(10);
    for (const { address, privateKey } of sut) {
      expect(privateKey).toMatch(/^0x[0-9a-f]{64}$/);
      expect(new Wallet(privateKey).address.toLowerCase()).toBe(address);
      expect(world.walletOf(address)!.isVault).toBe(false);
    }
  });

  it("lists the wallets trading through the service's builder first, then the others", () => {
    const sut = signInWallets(world, WALLETS);
    const usesService = sut.map(({ address }) => world.walletOf(address)!.perps.some((slot) => slot.builder?.b === world.builders.service));
    const firstOther = usesService.indexOf(false);
    expect(firstOther).toBeGreaterThan(0);
    expect(usesService.slice(firstOther).every((uses) => !uses)).toBe(true);
    expect(new Set(sut.map(({ address }) => address)).size).toBe(WALLETS);
  });

  it('is the same for two worlds with the same seed, and another for another seed', () => {
    expect(signInWallets(new SimWorld({ wallets: WALLETS, seed: SEED }), 5)).toEqual(signInWallets(world, 5));
    expect(signInWallets(new SimWorld({ wallets: WALLETS, seed: SEED + 1 }), 5)).not.toEqual(signInWallets(world, 5));
  });
});
