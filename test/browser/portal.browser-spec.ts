import { existsSync, mkdirSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import request from 'supertest';
import { HlCatalogService } from '../../src/modules/hl/hl-catalog.service';
import { NotificationsGenerateJob } from '../../src/modules/notifications/jobs/notifications-generate.job';
import { createTestApp, TestApp } from '../support/create-test-app';
import { seedHlReference } from '../support/hl-seed';
import { resetDb } from '../support/reset-db';
import { eventually } from '../support/http';
import { testConfig } from '../support/test-env';
import { InjectedWallet } from './injected-wallet';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** What the research notes found this closed network needs: no GPU, no background or update traffic. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];
const SCREENSHOTS = join(__dirname, '..', '..', 'test-artifacts', 'portal');
/** A public route that answers 200 on an empty database and is counted in /usage. */
const PUBLIC_PROBE = { path: '/api/public/v1/hl/prices/mids', endpoint: 'hl.prices.mids' };
/**
 * Page-side scripts are text: the tests compile without the DOM's types. Only for evaluate and init
 * scripts: waitForFunction evaluates text with eval, which the page's CSP refuses.
 */
const FOCUSED_ID = 'document.activeElement && document.activeElement.id';
const REPORT_CSP_VIOLATIONS =
  "document.addEventListener('securitypolicyviolation', (event) => console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI));";
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 900 };

interface OpenedPortal {
  page: Page;
  wallet: InjectedWallet;
  /** Console errors, uncaught exceptions and CSP violations, in the order they happened. */
  problems: string[];
  close(): Promise<void>;
}

describe('The developer portal in headless Chromium', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM_PATH)) {
      throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}: install it (apt-get install chromium) or point CHROMIUM_PATH at one`);
    }
    mkdirSync(SCREENSHOTS, { recursive: true });
    // Usage meters flush and sync often, so a call shows in /api/v1/usage within a second or two.
    t = await createTestApp(testConfig({ JOBS_ENABLED: 'false', USAGE_FLUSH_INTERVAL_MS: '200' }));
    // The /hl coins a watchlist may hold.
    await resetDb(t.db);
    await seedHlReference(t.db);
    t.app.get(HlCatalogService).invalidate();
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function openPortal({ viewport = DESKTOP, wallets = [new InjectedWallet()], fakeClock = false } = {}): Promise<OpenedPortal> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    if (fakeClock) await page.clock.install();
    for (const wallet of wallets) await wallet.install(page);
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.addInitScript({ content: REPORT_CSP_VIOLATIONS });
    await page.goto(`${base}/portal`);
    return { page, wallet: wallets[0], problems, close: () => context.close() };
  }

  async function shot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  /** Connects the injected wallet and signs in; answers the session token the page received. */
  async function signIn({ page, wallet }: OpenedPortal, screenshots?: string): Promise<string> {
    await page.getByRole('button', { name: 'Connect wallet' }).click();
    await expectText(page, '#connected-as', wallet.address);
    if (screenshots) await shot(page, `${screenshots}-02-connected`);
    const signedIn = page.waitForResponse((res) => res.url().endsWith('/api/v1/auth/sign-message'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    const { data } = await (await signedIn).json();
    await page.locator('#dashboard').waitFor({ state: 'visible' });
    await expectText(page, '#account-tier', 'Free');
    return data.token;
  }

  async function createKey(page: Page, name: string): Promise<string> {
    await page.getByLabel('New key name').fill(name);
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.locator('#new-key-dialog');
    await dialog.waitFor({ state: 'visible' });
    return page.locator('#new-key-value').inputValue();
  }

  async function expectText(page: Page, selector: string, text: string): Promise<void> {
    await page.locator(selector, { hasText: text }).first().waitFor({ state: 'visible', timeout: 10_000 });
  }

  function publicCall(key: string) {
    return request(base).get(PUBLIC_PROBE.path).set('x-api-key', key);
  }

  it('signs in with a wallet, shows a new key once, counts its call, revokes it and signs out', async () => {
    const portal = await openPortal();
    const { page, wallet, problems } = portal;
    try {
      await page.getByRole('button', { name: 'Connect wallet' }).waitFor();
      await shot(page, 'desktop-01-connect');

      const token = await signIn(portal, 'desktop');
      expect(wallet.signed).toHaveLength(1);
      expect(wallet.signed[0]).toContain(wallet.address);
      await expectText(page, '#account-rpm', '60 requests a minute');
      await shot(page, 'desktop-03-dashboard');

      // The plaintext is in the dialog once; focus starts on Copy, and closing the dialog wipes it.
      const key = await createKey(page, 'browser-test');
      expect(key).toMatch(/^mdk_/);
      expect(await page.evaluate<string>(FOCUSED_ID)).toBe('copy-key');
      await shot(page, 'desktop-04-new-key');
      await page.keyboard.press('Escape');
      await page.locator('#new-key-dialog').waitFor({ state: 'hidden' });
      // The dialog's close event comes a task after it hides.
      expect(
        await eventually(
          () => page.locator('#new-key-value').inputValue(),
          (value) => value === '',
        ),
      ).toBe('');
      expect(await page.content()).not.toContain(key);
      const row = page.locator('#keys-body tr', { hasText: 'browser-test' });
      await row.locator('.badge', { hasText: 'active' }).waitFor();

      // A call with the key shows in the usage chart's table once the meters have synced.
      expect((await publicCall(key)).status).toBe(200);
      const usageRow = page.locator('#usage-body tr', { hasText: PUBLIC_PROBE.endpoint });
      const counted = await eventually(
        async () => {
          // The button is disabled while its reload runs.
          await page.getByRole('button', { name: 'Refresh' }).click();
          await page.locator('#refresh-usage:not([disabled])').waitFor();
          return (await usageRow.count()) > 0 ? usageRow.locator('td').nth(1).innerText() : '';
        },
        (calls) => calls === '1',
        10_000,
      );
      expect(counted).toBe('1');
      await shot(page, 'desktop-05-usage');

      // Revoking asks first; then the key is refused within 5 s.
      await row.getByRole('button', { name: /^Revoke key browser-test/ }).click();
      await page.locator('#revoke-dialog').waitFor({ state: 'visible' });
      expect(await page.evaluate<string>(FOCUSED_ID)).toBe('cancel-revoke');
      await shot(page, 'desktop-06-revoke-confirm');
      await page.getByRole('button', { name: 'Revoke', exact: true }).click();
      await row.locator('.badge', { hasText: 'revoked' }).waitFor();
      const refused = await eventually(
        async () => (await publicCall(key)).status,
        (status) => status === 401,
        5_000,
      );
      expect(refused).toBe(401);
      await shot(page, 'desktop-07-revoked');

      // Signing out returns to the connect step and the server refuses the old token.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.locator('#connect-view').waitFor({ state: 'visible' });
      expect(await page.locator('#dashboard').isHidden()).toBe(true);
      await shot(page, 'desktop-08-signed-out');
      const account = await request(base).get('/api/v1/account').set('authorization', `Bearer ${token}`);
      expect(account.status).toBe(401);

      expect(problems).toEqual([]);
    } finally {
      await portal.close();
    }
  });

  it('adds a coin to a watchlist, then shows the price alert the generator sends for it and marks it read', async () => {
    const portal = await openPortal();
    const { page, problems } = portal;
    try {
      const token = await signIn(portal);
      await page.getByLabel('New watchlist name').fill('majors');
      await page.getByRole('button', { name: 'Create watchlist' }).click();
      await page.getByLabel('Add a coin to majors').fill('btc');
      await page.getByRole('button', { name: 'Add coin' }).click();
      // Stored under its canonical spelling; an unknown coin is refused with the server's msg.
      await page.getByRole('button', { name: 'Remove BTC from majors' }).waitFor();
      await page.getByLabel('Add a coin to majors').fill('NOSUCHCOIN');
      await page.getByRole('button', { name: 'Add coin' }).click();
      await expectText(page, '#error-notice', 'unknown coin "NOSUCHCOIN"');
      await expectText(page, '#notifications-unread', 'all read');
      await shot(page, 'desktop-11-watchlist');

      // BTC rises 8 % within the hour: the generator sends one alert.
      const minute = Math.floor(Date.now() / 60_000);
      await t.db.query(`INSERT INTO hl_mid_samples (coin, minute, px) VALUES ('BTC', $1, 92593)`, [minute - 60]);
      const job = t.app.get(NotificationsGenerateJob, { strict: false });
      expect((await job.run()).rows).toBe(1);

      await page.getByRole('button', { name: 'Check again' }).click();
      const alert = page.locator('#notifications-list li', { hasText: 'BTC rose 8.0% in the last hour to 100,001' });
      await alert.waitFor();
      await expectText(page, '#notifications-unread', '1 unread');
      await shot(page, 'desktop-12-notification');
      await alert.getByRole('button', { name: /^Mark read/ }).click();
      await expectText(page, '#notifications-unread', 'all read');
      expect(await alert.getByRole('button').count()).toBe(0);

      // The key's public read agrees.
      const key = (await request(base).post('/api/v1/keys').set('authorization', `Bearer ${token}`).send({ name: 'reader' })).body.data.key;
      const unread = await request(base).get('/api/public/v1/account/notifications/unread').set('x-api-key', key);
      expect(unread.body.data).toEqual({ unread: false, count: 0 });
      // The one refused request (the unknown coin), which the browser logs; nothing else.
      expect(problems).toEqual(['console: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    } finally {
      await portal.close();
    }
  });

  it('fits a 375 px phone screen without sideways scrolling', async () => {
    const portal = await openPortal({ viewport: PHONE });
    const { page, problems } = portal;
    try {
      await shot(page, 'phone-01-connect');
      await signIn(portal);
      await createKey(page, 'a-rather-long-key-name-for-a-small-screen');
      await shot(page, 'phone-02-new-key');
      await page.getByRole('button', { name: 'Close' }).click();
      await page.locator('#keys-body tr').first().waitFor();
      await shot(page, 'phone-03-dashboard');

      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      expect(problems).toEqual([]);
    } finally {
      await portal.close();
    }
  });

  it('lets the user pick among several wallets', async () => {
    const second = new InjectedWallet({ name: 'Second Wallet', legacy: false });
    const portal = await openPortal({ wallets: [new InjectedWallet({ name: 'First Wallet' }), second] });
    const { page, problems } = portal;
    try {
      await page.getByRole('button', { name: 'Connect wallet' }).click();
      const choices = page.locator('#wallet-list button');
      await choices.first().waitFor();
      expect(await choices.allInnerTexts()).toEqual(['First Wallet', 'Second Wallet']);
      expect(await page.evaluate<string>('document.activeElement && document.activeElement.textContent')).toBe('First Wallet');
      await shot(page, 'desktop-09-wallet-choice');
      await choices.filter({ hasText: 'Second Wallet' }).click();
      await expectText(page, '#connected-as', `${second.address} (Second Wallet)`);
      expect(problems).toEqual([]);
    } finally {
      await portal.close();
    }
  });

  it('falls back to window.ethereum when no wallet announces itself', async () => {
    const legacy = new InjectedWallet({ announce: false });
    const portal = await openPortal({ wallets: [legacy] });
    const { page, problems } = portal;
    try {
      await signIn(portal);
      expect(await page.locator('#session-address').innerText()).toBe(legacy.address);
      expect(legacy.signed).toHaveLength(1);
      expect(problems).toEqual([]);
    } finally {
      await portal.close();
    }
  });

  it('replaces its session token shortly before it expires, and keeps working with the new one', async () => {
    const portal = await openPortal({ fakeClock: true });
    const { page, problems } = portal;
    try {
      const first = await signIn(portal);
      const refreshed = page.waitForResponse((res) => res.url().endsWith('/api/v1/auth/refresh'));
      // Tokens live an hour (AUTH_TOKEN_TTL_MS); the page replaces one a minute before it ends.
      await page.clock.fastForward('59:30');
      const { data } = await (await refreshed).json();
      expect(data.token).not.toBe(first);

      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.locator('#status-notice', { hasText: 'Refreshed at' }).waitFor();
      expect(await page.locator('#error-notice').innerText()).toBe('');
      expect((await request(base).get('/api/v1/account').set('authorization', `Bearer ${first}`)).status).toBe(401);
      expect(problems).toEqual([]);
    } finally {
      await portal.close();
    }
  });

  it("shows the server's msg when it refuses a request", async () => {
    const portal = await openPortal();
    const { page } = portal;
    try {
      const token = await signIn(portal);
      for (let i = 1; i <= 5; i++) {
        const res = await request(base)
          .post('/api/v1/keys')
          .set('authorization', `Bearer ${token}`)
          .send({ name: `made-elsewhere-${i}` });
        expect(res.status).toBe(201);
      }
      await page.getByLabel('New key name').fill('one-too-many');
      const refused = page.waitForResponse((res) => res.url().endsWith('/api/v1/keys') && res.request().method() === 'POST');
      await page.getByRole('button', { name: 'Create key' }).click();
      const { msg } = await (await refused).json();

      await expectText(page, '#error-notice', msg);
      expect(await page.locator('#new-key-dialog').isHidden()).toBe(true);
      // The list catches up with the keys made elsewhere.
      await page.locator('#keys-body tr', { hasText: 'made-elsewhere-5' }).waitFor();
      await shot(page, 'desktop-10-refused');
    } finally {
      await portal.close();
    }
  });
});
