import { INestApplication } from '@nestjs/common';
import { AccountAdminService, MAX_ACTIVE_KEYS } from '../src/modules/account/account-admin.service';

/**
 * The name of every key the demo issues. Parentheses are refused in a key name the portal takes, so no key
 * a user made there carries it, and the portal lists it under this name.
 */
export const DEMO_KEY_NAME = 'npm run demo (rotated)';

/**
 * A fresh key of the wallet's account for this demo run, shown once. To stay within MAX_ACTIVE_KEYS it
 * revokes the oldest keys of earlier runs, never one the user made (portal, CLI): an account whose slots
 * are all the user's gets no demo key, and createKey's refusal names the wallet.
 */
export async function issueDemoKey(app: INestApplication, wallet: string): Promise<string> {
  const admin = app.get(AccountAdminService);
  const active = (await admin.listKeys({ wallet })).filter((k) => !k.revokedAt);
  const demoKeys = active.filter((k) => k.name === DEMO_KEY_NAME);
  const excess = Math.max(0, active.length - (MAX_ACTIVE_KEYS - 1));
  // listKeys answers oldest first.
  for (const stale of demoKeys.slice(0, excess)) await admin.revokeKey({ prefix: stale.prefix });
  return (await admin.createKey({ wallet, name: DEMO_KEY_NAME })).key;
}
