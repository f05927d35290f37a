import { Wallet } from 'ethers';
import { AccountAdminService } from '../../src/modules/account/account-admin.service';
import { parseBuilderFillsFile } from '../../src/providers/hyperliquid/hyperliquid-builder-fills.schema';
import { BuilderFill } from '../../src/providers/hyperliquid/hyperliquid.types';
import { SignInWallet } from '../../src/simulator/sign-in-wallets';
import { startSimulator } from '../../src/simulator/simulator.server';
import { TestApp } from './create-test-app';
import { createHlApp, Simulator } from './hl-stack';
import { resetDb } from './reset-db';
import { backend, signIn } from './wallet-session';

export const DISTRIBUTOR = '0x' + 'd1'.repeat(20);

/** A simulated trader signed in through the backend, on a paid tier, with a key of its account. */
export interface Trader {
  address: string;
  wallet: Wallet;
  token: string;
  key: string;
  accountId: string;
}

/** The simulator's world's test key of `address`, as `--print-wallets` gives it. */
export function walletOf(sim: Simulator, address: string): SignInWallet {
  return { address, privateKey: sim.world.privateKey(sim.world.addresses.indexOf(address)) };
}

/** A builder's daily file for the UTC day `day` (YYYY-MM-DD) from the simulator, parsed by the service's own parser; none when not published. */
export async function builderFile(sim: Simulator, builder: string, day: string): Promise<BuilderFill[]> {
  const res = await fetch(`${sim.statsUrl}/builder_fills/${builder}/${day.replaceAll('-', '')}.csv.lz4`);
  return res.status === 200 ? parseBuilderFillsFile(Buffer.from(await res.arrayBuffer()), { builder, label: `${builder} ${day}` }) : [];
}

/** The simulator (its clock the real one) and the app pointed at it by its own --print-env lines. */
export async function startEconomyStack({ wallets = 300, seed = 41 } = {}): Promise<{ sim: Simulator; t: TestApp }> {
  const sim = await startSimulator({ wallets, seed, weightPerMinute: 0 });
  const t = await createHlApp(sim, { BUILDER_FILLS_BACKFILL_DAYS: '2', REWARDS_DISTRIBUTOR_ADDRESS: DISTRIBUTOR });
  await resetDb(t.db);
  return { sim, t };
}

/** Simulated traders (`signInWallets` or chosen by the test), each signed in and made Pro. */
export async function signInTraders(t: TestApp, wallets: readonly SignInWallet[]): Promise<Trader[]> {
  const traders: Trader[] = [];
  for (const { address, privateKey } of wallets) {
    const wallet = new Wallet(privateKey);
    const { token } = await signIn(t, wallet);
    await t.app.get(AccountAdminService).setTier({ wallet: address, tier: 'pro' });
    const created = await backend(t, 'post', '/keys', token).send({ name: 'economy' });
    if (created.status !== 201) throw new Error(`key: ${created.status} ${JSON.stringify(created.body)}`);
    const [{ id }] = await t.db.query(`SELECT id FROM accounts WHERE wallet_address = $1`, [address]);
    traders.push({ address, wallet, token, key: created.body.data.key, accountId: id });
  }
  return traders;
}
