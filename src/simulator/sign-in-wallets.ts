import { SimWorld } from './world/sim-world';

/** A simulated trader as `--print-wallets` prints it; the key is a test key, public to anyone with the seed. */
export interface SignInWallet {
  address: string;
  privateKey: string;
}

/**
 * Up to `count` trader wallets with their keys: those trading through the service's builder first, so whoever
 * signs in with the first of them finds builder fees in their fills, then the others; each group in index order.
 */
export function signInWallets(world: SimWorld, count: number): SignInWallet[] {
  const chosen = (world.clientsOf(world.builders.service) ?? []).slice(0, count);
  const taken = new Set(chosen);
  for (let index = 0; index < world.walletCount && chosen.length < count; index++) if (!taken.has(index)) chosen.push(index);
  return chosen.map((index) => ({ address: world.addresses[index], privateKey: world.privateKey(index) }));
}
