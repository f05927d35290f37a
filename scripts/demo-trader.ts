// The demo's simulated trader: a wallet of the simulator's world that trades through the service's builder, with
// two referees bound to it and an OPC of its own, so a newcomer signing in with its (test) key sees fees, points,
// referrals, a claim round and OPC revenue filled in.
import { INestApplication, Logger } from '@nestjs/common';
import { JobRegistry } from '../src/jobs/job-registry';
import { JobRunner } from '../src/jobs/job-runner';
import { AccountAdminService } from '../src/modules/account/account-admin.service';
import { OpcService } from '../src/modules/opc/opc.service';
import { ReferralsRepository } from '../src/modules/referrals/referrals.repository';
import { RewardRoundsPublisher } from '../src/modules/rewards/reward-rounds.publisher';
import { signInWallets } from '../src/simulator/sign-in-wallets';
import { RunningSimulator } from '../src/simulator/simulator.server';
import { issueDemoKey } from './demo-keys';

const DAY_MS = 86_400_000;

export interface DemoTrader {
  address: string;
  /** A test key of the simulator's world: anyone with its seed can derive it. */
  privateKey: string;
  /** A fresh API key of the trader's account, shown once. */
  key: string;
}

/** The trader's account (Pro), referees and OPC; then, in the background, its fills, points and a claim round. */
export async function startDemoTrader(app: INestApplication, simulator: RunningSimulator, backfillDays: number): Promise<DemoTrader> {
  const { world } = simulator;
  const [trader, ...referees] = signInWallets(world, 3);
  const admin = app.get(AccountAdminService);
  const account = await admin.ensureAccount(trader.address);
  if (account.tier !== 'pro') await admin.setTier({ wallet: trader.address, tier: 'pro' });
  // Bound since the first day the fills are read from, so the referees' history counts for the trader.
  const boundAt = new Date(Date.now() - (backfillDays + 1) * DAY_MS);
  const referrals = app.get(ReferralsRepository);
  for (const referee of referees) await referrals.bind((await admin.ensureAccount(referee.address)).id, account.referralCode, boundAt);
  // The simulated OPC builder most traders use, so its revenue fills in whatever the day.
  const opc = [...world.builders.opcs].sort((a, b) => (world.clientsOf(b.b)?.length ?? 0) - (world.clientsOf(a.b)?.length ?? 0))[0];
  const opcs = app.get(OpcService);
  if (!(await opcs.get(account.id))) {
    await opcs.put(account.id, {
      name: 'Demo Desk',
      subdomain: 'demo-desk',
      frontendFeeTenthsBps: opc.f,
      builderAddress: opc.b,
      styleConfig: { theme: 'dark' },
    });
    await opcs.setActive(account.id, true);
  }
  const key = await issueDemoKey(app, trader.address);
  void fillPrograms(app).catch((error: unknown) => new Logger('Demo').warn(`demo trader: ${error instanceof Error ? error.message : String(error)}`));
  return { address: trader.address, privateKey: trader.privateKey, key };
}

/** The fills job now rather than at its first scheduled run, then one claim round of each programme. */
async function fillPrograms(app: INestApplication): Promise<void> {
  const job = app.get(JobRegistry).get('economy.builder-fills');
  if (job) await app.get(JobRunner).run(job, { waitMs: 60_000 });
  await app.get(RewardRoundsPublisher).publishAll();
}
