import { JwtService } from '@nestjs/jwt';
import { Wallet } from 'ethers';
import { AuthClock } from '../../src/modules/auth/auth-clock';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../../src/modules/auth/session-tokens';
import { AccountEntity } from '../../src/modules/account/entities/account.entity';
import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { get, waitForFreshWindow } from '../support/http';
import { resetDb } from '../support/reset-db';
import { testConfig } from '../support/test-env';
import { backend, challengeFor, post, signIn } from '../support/wallet-session';

const keysOf = (t: TestApp, token: string) => backend(t, 'get', '/keys', token);

describe('Wallet sessions (/api/v1/auth)', () => {
  let t: TestApp;
  let clock: AuthClock;

  beforeAll(async () => {
    t = await createTestApp(testConfig({ AUTH_SIWE_DOMAIN: 'portal.example.test', AUTH_SIWE_CHAIN_ID: '42161', AUTH_REFRESH_GRACE_MS: '2000' }));
    await resetDb(t.db);
    clock = t.app.get(AuthClock);
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  const shiftClock = (ms: number) => {
    const now = Date.now() + ms;
    jest.spyOn(clock, 'now').mockReturnValue(now);
  };

  describe('login', () => {
    it('answers an EIP-4361 challenge for the portal domain that names the checksummed address and expires in 5 minutes', async () => {
      const wallet = Wallet.createRandom();
      const res = await post(t, '/auth/login', { address: wallet.address.toLowerCase() });
      expect(res.status).toBe(200);
      const { message, nonce } = res.body.data;
      const lines = message.split('\n');
      expect(lines[0]).toBe('portal.example.test wants you to sign in with your Ethereum account:');
      expect(lines[1]).toBe(wallet.address);
      expect(lines[3]).toContain('cannot move funds, place orders or approve builder fees');
      expect(message).toContain('\nURI: http://portal.example.test/portal\nVersion: 1\nChain ID: 42161\n');
      expect(message).toContain(`\nNonce: ${nonce}\n`);
      const issued = Date.parse(/Issued At: (.+)/.exec(message)![1]);
      const expires = Date.parse(/Expiration Time: (.+)/.exec(message)![1]);
      expect(expires - issued).toBe(300_000);
      expect(Math.abs(issued - Date.now())).toBeLessThan(10_000);
    });

    it('refuses a mixed-case address whose EIP-55 checksum is wrong, and a non-address, naming address', async () => {
      const wallet = Wallet.createRandom();
      const body = wallet.address.slice(2);
      const flipped = `0x${body.replace(/[a-f]/, (c) => c.toUpperCase())}`;
      for (const address of [flipped, '0x1234', 42, undefined]) {
        const res = await post(t, '/auth/login', { address });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', data: null });
        expect(res.body.msg).toMatch(/^address: /);
      }
    });

    it('issues a different nonce on every call', async () => {
      const wallet = Wallet.createRandom();
      const [a, b] = await Promise.all([challengeFor(t, wallet), challengeFor(t, wallet)]);
      expect(a.nonce).not.toBe(b.nonce);
    });
  });

  describe('sign-message', () => {
    it('signs a new wallet in, opening its account on the Free tier, and the token opens the backend routes', async () => {
      const wallet = Wallet.createRandom();
      const { token, expiresAt } = await signIn(t, wallet);
      const lifetime = Date.parse(expiresAt) - Date.now();
      expect(lifetime).toBeGreaterThan(3_590_000);
      expect(lifetime).toBeLessThanOrEqual(3_600_000);
      const account = await t.db.getRepository(AccountEntity).findOneByOrFail({ walletAddress: wallet.address.toLowerCase() });
      expect(account.tier).toBe('free');
      const keys = await keysOf(t, token);
      expect(keys.status).toBe(200);
      expect(keys.body).toEqual({ code: '0', msg: 'success', data: [] });
    });

    it('signs an existing account in without making another', async () => {
      const existing = await makeAccount(t, { tier: 'pro' });
      const wallet = Wallet.createRandom();
      await t.db.getRepository(AccountEntity).update({ id: existing.account.id }, { walletAddress: wallet.address.toLowerCase() });
      const { token } = await signIn(t, wallet);
      const keys = await keysOf(t, token);
      expect(keys.body.data).toHaveLength(1);
      expect(await t.db.getRepository(AccountEntity).countBy({ walletAddress: wallet.address.toLowerCase() })).toBe(1);
    });

    it('refuses a signature by another wallet 401 INVALID_SIGNATURE, and the challenge stays usable', async () => {
      const wallet = Wallet.createRandom();
      const { message } = await challengeFor(t, wallet);
      const forged = await Wallet.createRandom().signMessage(message);
      const refused = await post(t, '/auth/sign-message', { address: wallet.address, message, signature: forged });
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: 'INVALID_SIGNATURE', data: null });
      const junk = await post(t, '/auth/sign-message', { address: wallet.address, message, signature: `0x${'11'.repeat(65)}` });
      expect(junk.status).toBe(401);
      expect(junk.body.code).toBe('INVALID_SIGNATURE');
      const signed = await post(t, '/auth/sign-message', { address: wallet.address, message, signature: await wallet.signMessage(message) });
      expect(signed.status).toBe(200);
      expect(typeof signed.body.data.token).toBe('string');
    });

    it.each([
      ['a message for another domain', (m: string) => m.replace('portal.example.test wants', 'evil.example wants')],
      ['a changed chain id', (m: string) => m.replace('Chain ID: 42161', 'Chain ID: 1')],
      ['an edited statement', (m: string) => m.replace('Sign in', 'Log in')],
      ['a later expiration time', (m: string) => m.replace(/Expiration Time: .+/, 'Expiration Time: 2099-01-01T00:00:00.000Z')],
    ])('refuses %s 401 INVALID_CHALLENGE even when the wallet signed it; the issued one still works', async (_name, edit) => {
      const wallet = Wallet.createRandom();
      const { message } = await challengeFor(t, wallet);
      const edited = edit(message);
      expect(edited).not.toBe(message);
      const refused = await post(t, '/auth/sign-message', { address: wallet.address, message: edited, signature: await wallet.signMessage(edited) });
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: 'INVALID_CHALLENGE', data: null });
      const signed = await post(t, '/auth/sign-message', { address: wallet.address, message, signature: await wallet.signMessage(message) });
      expect(signed.status).toBe(200);
    });

    it('refuses a challenge issued to another address, signed by the caller', async () => {
      const victim = Wallet.createRandom();
      const attacker = Wallet.createRandom();
      const { message } = await challengeFor(t, victim);
      const res = await post(t, '/auth/sign-message', { address: attacker.address, message, signature: await attacker.signMessage(message) });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('INVALID_CHALLENGE');
    });

    it('uses a nonce once: the same signed challenge a second time is 401 INVALID_CHALLENGE, also when raced', async () => {
      const wallet = Wallet.createRandom();
      const { message } = await challengeFor(t, wallet);
      const body = { address: wallet.address, message, signature: await wallet.signMessage(message) };
      const answers = await Promise.all([1, 2, 3].map(() => post(t, '/auth/sign-message', body)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401]);
      const replay = await post(t, '/auth/sign-message', body);
      expect(replay.status).toBe(401);
      expect(replay.body).toMatchObject({ code: 'INVALID_CHALLENGE', msg: expect.stringMatching(/^message: .*already used/) });
    });

    it('refuses a challenge signed after its 5 minutes (moved clock) and then forgets it', async () => {
      const wallet = Wallet.createRandom();
      const { message } = await challengeFor(t, wallet);
      const body = { address: wallet.address, message, signature: await wallet.signMessage(message) };
      shiftClock(300_001);
      const late = await post(t, '/auth/sign-message', body);
      expect(late.status).toBe(401);
      expect(late.body.code).toBe('INVALID_CHALLENGE');
      jest.restoreAllMocks();
      expect((await post(t, '/auth/sign-message', body)).status).toBe(401);
    });

    it('refuses malformed fields 400 naming them', async () => {
      const wallet = Wallet.createRandom();
      const { message } = await challengeFor(t, wallet);
      const cases: Array<[object, string]> = [
        [{ address: wallet.address, message, signature: 'not-hex' }, 'signature'],
        [{ address: wallet.address, message }, 'signature'],
        [{ address: wallet.address, signature: '0xab' }, 'message'],
        [{ message, signature: '0xab' }, 'address'],
        [{ address: wallet.address, message: 'x'.repeat(2001), signature: '0xab' }, 'message'],
      ];
      for (const [body, field] of cases) {
        const res = await post(t, '/auth/sign-message', body);
        expect(res.status).toBe(400);
        expect(res.body.msg).toMatch(new RegExp(`^${field}: `));
      }
    });
  });

  describe('tokens', () => {
    it('refresh answers a new token; the old one stops working at once', async () => {
      const first = await signIn(t);
      const refreshed = await post(t, '/auth/refresh', undefined, first.token);
      expect(refreshed.status).toBe(200);
      const second = refreshed.body.data;
      expect(second.token).not.toBe(first.token);
      expect((await keysOf(t, second.token)).status).toBe(200);
      const old = await keysOf(t, first.token);
      expect(old.status).toBe(401);
      expect(old.body).toMatchObject({ code: 'INVALID_TOKEN', data: null });
    });

    it('answers the same successor to a rotated token presented again within the grace (a lost response)', async () => {
      const first = await signIn(t);
      const a = await post(t, '/auth/refresh', undefined, first.token);
      const b = await post(t, '/auth/refresh', undefined, first.token);
      expect(b.status).toBe(200);
      expect(b.body.data).toEqual(a.body.data);
      expect((await keysOf(t, a.body.data.token)).status).toBe(200);
    });

    it('ends the whole session when a rotated token is presented again after the grace (reuse detection)', async () => {
      const first = await signIn(t);
      const second = (await post(t, '/auth/refresh', undefined, first.token)).body.data;
      shiftClock(2_500);
      const reuse = await post(t, '/auth/refresh', undefined, first.token);
      expect(reuse.status).toBe(401);
      expect(reuse.body).toMatchObject({ code: 'INVALID_TOKEN', msg: expect.stringContaining('session has ended') });
      jest.restoreAllMocks();
      const afterwards = await keysOf(t, second.token);
      expect(afterwards.status).toBe(401);
      expect((await post(t, '/auth/refresh', undefined, second.token)).status).toBe(401);
    });

    it('logout ends the session: its token is refused on every route, refresh included', async () => {
      const { token } = await signIn(t);
      const out = await post(t, '/auth/logout', undefined, token);
      expect(out.status).toBe(200);
      expect(out.body.data).toEqual({ loggedOut: true });
      expect((await keysOf(t, token)).status).toBe(401);
      expect((await post(t, '/auth/refresh', undefined, token)).status).toBe(401);
      expect((await post(t, '/auth/logout', undefined, token)).status).toBe(401);
    });

    it('refuses an expired token 401 TOKEN_EXPIRED, on the routes and on refresh', async () => {
      const { token } = await signIn(t);
      shiftClock(3_600_001);
      for (const res of [await keysOf(t, token), await post(t, '/auth/refresh', undefined, token)]) {
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('TOKEN_EXPIRED');
      }
    });

    it('refuses a token signed with another secret, alg none, or claims it was never issued', async () => {
      const { token } = await signIn(t);
      const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
      const otherSecret = new JwtService({ secret: 'another-secret-of-enough-length' }).sign(claims);
      const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      const unsigned = `${header}.${token.split('.')[1]}.`;
      const forgedJti = new JwtService({ secret: t.config.security.jwtSecret }).sign({ ...claims, jti: 'made-up' });
      const otherAudience = new JwtService({ secret: t.config.security.jwtSecret }).sign({ ...claims, aud: 'something-else', iss: TOKEN_ISSUER });
      for (const bad of [otherSecret, unsigned, forgedJti, otherAudience, 'not.a.token']) {
        const res = await keysOf(t, bad);
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('INVALID_TOKEN');
      }
      expect(claims).toMatchObject({ iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, sub: expect.stringMatching(/^0x[0-9a-f]{40}$/) });
      expect(Object.keys(claims).sort()).toEqual(['aud', 'exp', 'iat', 'iss', 'jti', 'sid', 'sub']);
    });

    it('refuses a token re-signed with a later exp, another iat or another sub 401 INVALID_TOKEN, and the session lives on', async () => {
      const wallet = Wallet.createRandom();
      const { token } = await signIn(t, wallet);
      const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
      const resign = (changes: object) => new JwtService({ secret: t.config.security.jwtSecret }).sign({ ...claims, ...changes });
      const yearAhead = resign({ exp: claims.exp + 365 * 86_400 });
      const forged = [yearAhead, resign({ iat: claims.iat - 60 }), resign({ sub: Wallet.createRandom().address.toLowerCase() })];
      for (const bad of forged) {
        for (const res of [await keysOf(t, bad), await post(t, '/auth/refresh', undefined, bad), await post(t, '/auth/logout', undefined, bad)]) {
          expect(res.status).toBe(401);
          expect(res.body).toMatchObject({ code: 'INVALID_TOKEN', msg: 'authorization: the token is not the one issued for its session', data: null });
        }
      }
      expect((await keysOf(t, token)).status).toBe(200);
      // Past the issued expiry the genuine token is expired and the re-signed one is still refused.
      shiftClock(3_600_001);
      expect((await keysOf(t, token)).body.code).toBe('TOKEN_EXPIRED');
      expect((await keysOf(t, yearAhead)).body.code).toBe('INVALID_TOKEN');
      expect((await post(t, '/auth/refresh', undefined, yearAhead)).body.code).toBe('INVALID_TOKEN');
    });

    it('refuses a rotated token re-signed with a later exp within the grace, without ending the session', async () => {
      const first = await signIn(t);
      const second = (await post(t, '/auth/refresh', undefined, first.token)).body.data;
      const claims = JSON.parse(Buffer.from(first.token.split('.')[1], 'base64url').toString());
      const later = new JwtService({ secret: t.config.security.jwtSecret }).sign({ ...claims, exp: claims.exp + 86_400 });
      const retry = await post(t, '/auth/refresh', undefined, later);
      expect(retry.status).toBe(401);
      expect(retry.body.code).toBe('INVALID_TOKEN');
      expect((await keysOf(t, second.token)).status).toBe(200);
    });

    it('answers 401 UNAUTHORIZED without a bearer token', async () => {
      const res = await keysOf(t, undefined as unknown as string);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'UNAUTHORIZED', msg: 'authorization: a wallet session is required', data: null });
    });
  });

  describe('the two surfaces keep their credentials apart', () => {
    it('an API key is no credential on /api/v1, a session token none on /api/public/v1', async () => {
      const { key } = await makeAccount(t, { tier: 'pro' });
      const { token } = await signIn(t);
      const withKey = await backend(t, 'get', '/keys').set('x-api-key', key);
      expect(withKey.status).toBe(401);
      const keyAsBearer = await keysOf(t, key);
      expect(keyAsBearer.status).toBe(401);
      const publicWithToken = await get(t, '/usage').set('authorization', `Bearer ${token}`);
      expect(publicWithToken.status).toBe(401);
      expect(publicWithToken.body.code).toBe('INVALID_API_KEY');
      expect((await get(t, '/usage', token)).status).toBe(401);
    });
  });
});

describe('Wallet sessions: the auth routes’ own rate limits', () => {
  let t: TestApp;
  let perWallet: TestApp;

  beforeAll(async () => {
    t = await createTestApp(testConfig({ AUTH_RATE_LIMIT_PER_IP: '4', AUTH_RATE_LIMIT_PER_ADDRESS: '2' }));
    perWallet = await createTestApp(testConfig({ AUTH_RATE_LIMIT_PER_ADDRESS: '2' }));
  });
  afterAll(async () => {
    await perWallet.close();
    await t.close();
  });

  it('counts a wallet’s window only on requests that prove the wallet: forged sign-ins for it never lock its owner out', async () => {
    await waitForFreshWindow(10);
    const wallet = Wallet.createRandom();
    for (let attempt = 0; attempt < 4; attempt++) {
      const { message } = await challengeFor(perWallet, wallet);
      const forged = await post(perWallet, '/auth/sign-message', {
        address: wallet.address,
        message,
        signature: await Wallet.createRandom().signMessage(message),
      });
      expect(forged.status).toBe(401);
    }
    const first = await signIn(perWallet, wallet);
    const refreshed = await post(perWallet, '/auth/refresh', undefined, first.token);
    expect(refreshed.status).toBe(200);
    const { message } = await challengeFor(perWallet, wallet);
    const third = await post(perWallet, '/auth/sign-message', { address: wallet.address, message, signature: await wallet.signMessage(message) });
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ code: 'RATE_LIMITED', msg: 'rate limit of 2 requests per minute exceeded' });
    expect(third.headers['x-ratelimit-limit']).toBe('2');
    expect(Number(third.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The window is the wallet's: another wallet signs in from the same client.
    expect((await signIn(perWallet)).token).toEqual(expect.any(String));
  });

  it('refuses a client past its per-minute calls 429 with Retry-After and the X-RateLimit-* headers', async () => {
    const answers = [];
    for (let call = 0; call < 6; call++) answers.push(await post(t, '/auth/login', { address: Wallet.createRandom().address }));
    const statuses = answers.map((a) => a.status);
    // A minute boundary may fall inside the loop and open a fresh window.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    const ok = answers.find((a) => a.status === 200)!;
    expect(ok.headers['x-ratelimit-limit']).toBe('4');
    expect(Number(ok.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', data: null });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
  });
});

describe('Wallet sessions: the bound on outstanding login challenges', () => {
  let t: TestApp;
  let clock: AuthClock;

  beforeAll(async () => {
    t = await createTestApp(testConfig({ AUTH_CHALLENGES_MAX: '3' }));
    clock = t.app.get(AuthClock);
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  it('answers 503 with Retry-After past AUTH_CHALLENGES_MAX over every client, and issues again once one is used or expires', async () => {
    const wallets = [Wallet.createRandom(), Wallet.createRandom(), Wallet.createRandom()];
    const challenges = [];
    for (const wallet of wallets) challenges.push(await challengeFor(t, wallet));
    const refused = await post(t, '/auth/login', { address: Wallet.createRandom().address });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      msg: expect.stringMatching(/^nonce: too many sign-ins are in progress; try again in \d+ s$/),
      data: null,
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(300);

    // A signed challenge leaves the count: one place again.
    const { message } = challenges[0];
    const signed = await post(t, '/auth/sign-message', { address: wallets[0].address, message, signature: await wallets[0].signMessage(message) });
    expect(signed.status).toBe(200);
    await challengeFor(t, Wallet.createRandom());
    expect((await post(t, '/auth/login', { address: Wallet.createRandom().address })).status).toBe(503);

    // Expired challenges leave it too.
    jest.spyOn(clock, 'now').mockReturnValue(Date.now() + 300_001);
    for (let n = 0; n < 3; n++) await challengeFor(t, Wallet.createRandom());
  });
});
