import { Wallet } from 'ethers';
import { AccountAdminService } from '../../src/modules/account/account-admin.service';
import { AccountEntity } from '../../src/modules/account/entities/account.entity';
import { Tier } from '../../src/modules/billing/tiers';
import { TestApp } from './create-test-app';

export interface TestAccount {
  account: AccountEntity;
  key: string;
  prefix: string;
  wallet: string;
}

/** An account with one active key, through the same service the ops CLI uses. */
export async function makeAccount(t: TestApp, { tier = 'pro', credits }: { tier?: Tier; credits?: string } = {}): Promise<TestAccount> {
  const admin = t.app.get(AccountAdminService);
  const wallet = Wallet.createRandom().address;
  let account = await admin.createAccount({ wallet, tier });
  if (credits !== undefined) account = await admin.setCredits({ wallet, amount: credits });
  const key = await admin.createKey({ wallet });
  return { account, key: key.key, prefix: key.prefix, wallet: account.walletAddress };
}
