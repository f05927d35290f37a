import { DEMO_KEY_NAME, issueDemoKey } from '../../scripts/demo-keys';
import { AccountAdminService, MAX_ACTIVE_KEYS } from '../../src/modules/account/account-admin.service';
import { createTestApp, TestApp } from '../support/create-test-app';
import { resetDb } from '../support/reset-db';

const WALLET = '0xde000000000000000000000000000000000000aa';

describe('the demo key of each npm run demo', () => {
  let t: TestApp;
  let admin: AccountAdminService;

  beforeAll(async () => {
    t = await createTestApp();
    admin = t.app.get(AccountAdminService);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await resetDb(t.db);
    await admin.createAccount({ wallet: WALLET, tier: 'pro' });
  });

  const activeKeys = async () => (await admin.listKeys({ wallet: WALLET })).filter((k) => !k.revokedAt);

  it("revokes only the demo's own oldest key to make room, never a key the user made", async () => {
    const portal = await admin.createKey({ wallet: WALLET, name: 'trading bot' });
    const cli = await admin.createKey({ wallet: WALLET });
    const runs: string[] = [];
    for (let run = 0; run < MAX_ACTIVE_KEYS; run++) runs.push(await issueDemoKey(t.app, WALLET));

    const active = await activeKeys();
    expect(active).toHaveLength(MAX_ACTIVE_KEYS);
    expect(active.map((k) => k.prefix)).toEqual(expect.arrayContaining([portal.prefix, cli.prefix]));
    // The last three runs' keys stay; the first two runs' were revoked, oldest first.
    expect(active.filter((k) => k.name === DEMO_KEY_NAME).map((k) => k.prefix)).toEqual(runs.slice(-3).map((key) => key.slice(0, portal.prefix.length)));
  });

  it('issues no key, naming the wallet, when every slot holds a key the user made', async () => {
    for (let i = 0; i < MAX_ACTIVE_KEYS; i++) await admin.createKey({ wallet: WALLET, name: `bot ${i}` });

    await expect(issueDemoKey(t.app, WALLET)).rejects.toThrow(`${WALLET} already has ${MAX_ACTIVE_KEYS} active keys`);
    expect((await activeKeys()).map((k) => k.name)).toEqual(['bot 0', 'bot 1', 'bot 2', 'bot 3', 'bot 4']);
  });
});
