import { Wallet } from 'ethers';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CliIo, runCli } from '../../src/cli/cli-runner';
import { acquireEmbeddedLock, EMBEDDED_LOCK_FILE, EmbeddedLockError } from '../../src/infra/database/embedded-lock';
import { createTestApp, TestApp } from '../support/create-test-app';
import { get } from '../support/http';
import { TEST_DATABASE_URL, TEST_REDIS_URL, uniqueKeyPrefix } from '../support/test-env';

/** The spawned commands' Redis keys, under this run's prefix like every other test key. */
const CLI_KEY_PREFIX = uniqueKeyPrefix();

const ROOT = resolve(__dirname, '../..');
const KEY_PATTERN = /^mdk_[A-Za-z0-9]{32}$/;
const REVOCATION_DEADLINE_MS = 5_000;
const POLL_MS = 250;
// Each spawn compiles the CLI with ts-node (~2-3 s); several run per test.
const SPAWN_TIMEOUT_MS = 60_000;

interface CliRun {
  code: number | null;
  stdout: string[];
  stderr: string;
  /** The one JSON object --json promises on stdout. */
  json: Record<string, any>;
}

function toRun(code: number | null, stdout: string, stderr: string): CliRun {
  const lines = stdout.split('\n').filter((line) => line.length > 0);
  let json: Record<string, any> = {};
  try {
    json = lines.length === 1 ? JSON.parse(lines[0]) : {};
  } catch {
    // Human-readable output; tests that need json assert on it.
  }
  return { code, stdout: lines, stderr, json };
}

/**
 * The real command line against the test servers: `node -r ts-node/register/transpile-only src/cli/main.ts ...`,
 * or with `viaNpm` the documented `npm run -s cli -- ...` (-s keeps npm's banner of the script off stdout).
 */
function spawnCli(args: string[], { viaNpm = false } = {}): Promise<CliRun> {
  return new Promise((done, fail) => {
    const [command, commandArgs] = viaNpm
      ? ['npm', ['run', '-s', 'cli', '--', ...args]]
      : [process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/cli/main.ts', ...args]];
    const child = spawn(command, commandArgs, {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: TEST_DATABASE_URL, REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: CLI_KEY_PREFIX, DEBUG: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done(toRun(code, stdout, stderr)));
  });
}

const newWallet = () => Wallet.createRandom().address;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ops CLI', () => {
  let t: TestApp;

  /** The same runner main.ts uses, on the test app's AccountAdminService: everything but the process boot. */
  async function cli(...args: string[]): Promise<CliRun> {
    let stdout = '';
    let stderr = '';
    const io: CliIo = { stdout: (text) => (stdout += `${text}\n`), stderr: (text) => (stderr += `${text}\n`) };
    const code = await runCli(args, { io, withApp: (work) => work(t.app) });
    return toRun(code, stdout, stderr);
  }

  async function createAccount(tier = 'pro'): Promise<string> {
    const run = await cli('account:create', '--wallet', newWallet(), '--tier', tier, '--json');
    expect(run.code).toBe(0);
    return run.json.account.walletAddress;
  }

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('as a process', () => {
    it(
      'creates an account and prints one JSON object',
      async () => {
        const wallet = newWallet();
        const run = await spawnCli(['account:create', '--wallet', wallet, '--tier', 'PRO', '--json']);
        expect(run.code).toBe(0);
        expect(run.stdout).toHaveLength(1);
        expect(run.json).toEqual({
          ok: true,
          account: expect.objectContaining({ walletAddress: wallet.toLowerCase(), tier: 'pro', creditBalance: '10000000' }),
        });
      },
      SPAWN_TIMEOUT_MS,
    );

    it(
      'prints only its JSON object on stdout when run as `npm run -s cli -- ...`',
      async () => {
        const wallet = await createAccount();
        const run = await spawnCli(['key:list', '--wallet', wallet, '--json'], { viaNpm: true });
        expect(run.code).toBe(0);
        expect(run.stdout).toHaveLength(1);
        expect(run.json).toEqual({ ok: true, walletAddress: wallet, keys: [] });
      },
      SPAWN_TIMEOUT_MS,
    );

    it(
      'fails with a non-zero exit and a message for refusals and bad command lines',
      async () => {
        const wallet = await createAccount();
        const [duplicate, unknownCommand, unknownOption] = await Promise.all([
          spawnCli(['account:create', '--wallet', wallet, '--tier', 'pro', '--json']),
          spawnCli(['account:delete', '--json']),
          spawnCli(['key:list', '--wallet', wallet, '--colour', 'red']),
        ]);
        expect(duplicate.code).toBe(1);
        expect(duplicate.json).toEqual({ ok: false, error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/^wallet: /) } });
        expect(duplicate.stderr).toContain('already exists');
        expect(unknownCommand.code).toBe(2);
        expect(unknownCommand.json.error).toEqual({ code: 'USAGE_ERROR', message: 'unknown command "account:delete"' });
        expect(unknownOption.code).toBe(2);
        expect(unknownOption.stdout).toEqual([]);
        expect(unknownOption.stderr).toContain('unknown option --colour');
      },
      SPAWN_TIMEOUT_MS,
    );

    it(
      'issues a key the running API accepts, and revokes it within 5 s',
      async () => {
        const wallet = await createAccount();
        const created = await spawnCli(['key:create', '--wallet', wallet, '--json']);
        expect(created.code).toBe(0);
        const { key, prefix } = created.json;
        expect(key).toMatch(KEY_PATTERN);

        const accepted = await get(t, '/account', key);
        expect(accepted.status).toBe(200);
        expect(accepted.body.data.walletAddress).toBe(wallet);

        const revoked = await spawnCli(['key:revoke', '--prefix', prefix, '--json']);
        expect(revoked.code).toBe(0);
        expect(revoked.json).toMatchObject({ ok: true, prefix, revokedAt: expect.any(String) });

        const deadline = Date.now() + REVOCATION_DEADLINE_MS;
        let refused: Awaited<ReturnType<typeof get>>;
        for (;;) {
          refused = await get(t, '/account', key);
          if (refused.status !== 200 || Date.now() > deadline) break;
          await sleep(POLL_MS);
        }
        expect(refused.status).toBe(401);
        expect(refused.body.code).toBe('INVALID_API_KEY');
      },
      SPAWN_TIMEOUT_MS,
    );
  });

  describe('account commands', () => {
    it('stores the wallet and the tier in lower case', async () => {
      const wallet = newWallet();
      const run = await cli('account:create', '--wallet', wallet.toUpperCase().replace('0X', '0x'), '--tier', 'Max', '--json');
      expect(run.code).toBe(0);
      expect(run.json.account).toMatchObject({ walletAddress: wallet.toLowerCase(), tier: 'max', creditBalance: '100000000' });
    });

    it('refuses a duplicate account, naming the wallet', async () => {
      const wallet = await createAccount();
      const run = await cli('account:create', '--wallet', wallet, '--tier', 'free', '--json');
      expect(run.code).toBe(1);
      expect(run.json).toEqual({ ok: false, error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/^wallet: .*already exists/) } });
    });

    it.each([
      ['an unknown tier', ['--wallet', newWallet(), '--tier', 'gold'], /^tier: /],
      ['a malformed wallet', ['--wallet', '0x1234', '--tier', 'pro'], /^wallet: /],
    ])('refuses %s, naming the field', async (_, options, message) => {
      const run = await cli('account:create', ...options, '--json');
      expect(run.code).toBe(1);
      expect(run.json.error).toEqual({ code: 'VALIDATION_ERROR', message: expect.stringMatching(message) });
    });

    it('sets the tier and starts the new quota', async () => {
      const wallet = await createAccount('free');
      const toMax = await cli('account:set-tier', '--wallet', wallet, '--tier', 'max', '--json');
      expect(toMax.json).toMatchObject({ ok: true, account: { walletAddress: wallet, tier: 'max', creditBalance: '100000000' } });
      const toFree = await cli('account:set-tier', '--wallet', wallet, '--tier', 'free', '--json');
      expect(toFree.json.account).toMatchObject({ tier: 'free', creditBalance: '0' });
      const bad = await cli('account:set-tier', '--wallet', wallet, '--tier', 'platinum', '--json');
      expect(bad.json.error.message).toMatch(/^tier: /);
    });

    it('reports an unknown account as NOT_FOUND', async () => {
      const run = await cli('account:set-tier', '--wallet', newWallet(), '--tier', 'pro', '--json');
      expect(run.code).toBe(1);
      expect(run.json.error.code).toBe('NOT_FOUND');
    });
  });

  describe('credits:set', () => {
    it('sets the balance that account:list shows, as a decimal string', async () => {
      const wallet = await createAccount();
      const set = await cli('credits:set', '--wallet', wallet, '--amount', '1234.500000', '--json');
      expect(set.json).toMatchObject({ ok: true, account: { walletAddress: wallet, creditBalance: '1234.5' } });
      const list = await cli('account:list', '--json');
      expect(list.stdout).toHaveLength(1);
      expect(list.json.accounts.find((a: { walletAddress: string }) => a.walletAddress === wallet)).toMatchObject({
        creditBalance: '1234.5',
        tier: 'pro',
        activeKeys: 0,
      });
    });

    it.each(['-1', 'abc', '1.1234567', ''])('rejects the amount %j, naming the field', async (amount) => {
      const wallet = await createAccount();
      const run = await cli('credits:set', '--wallet', wallet, `--amount=${amount}`, '--json');
      expect(run.code).toBe(1);
      expect(run.json.error).toEqual({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/^amount: /) });
    });

    it('explains how to pass a value that starts with a dash', async () => {
      const run = await cli('credits:set', '--wallet', newWallet(), '--amount', '-1');
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('--amount=<value>');
    });
  });

  describe('key commands', () => {
    it('prints a new key once, with its prefix', async () => {
      const wallet = await createAccount();
      const run = await cli('key:create', '--wallet', wallet, '--json');
      expect(run.code).toBe(0);
      expect(Object.keys(run.json).sort()).toEqual(['createdAt', 'id', 'key', 'name', 'ok', 'prefix', 'walletAddress']);
      expect(run.json.name).toBeNull();
      expect(run.json.key).toMatch(KEY_PATTERN);
      expect(run.json.prefix).toBe(run.json.key.slice(0, 12));
      expect(run.json.walletAddress).toBe(wallet);

      const human = await cli('key:create', '--wallet', wallet);
      expect(human.stdout.join('\n')).toMatch(/mdk_[A-Za-z0-9]{32}[\s\S]*only time the key is shown/);
    });

    it('refuses the sixth active key', async () => {
      const wallet = await createAccount();
      for (let i = 0; i < 5; i += 1) expect((await cli('key:create', '--wallet', wallet, '--json')).code).toBe(0);
      const sixth = await cli('key:create', '--wallet', wallet, '--json');
      expect(sixth.code).toBe(1);
      expect(sixth.json.error).toEqual({ code: 'FORBIDDEN', message: expect.stringMatching(/^wallet: .*5 active keys/) });
    });

    it('lists prefixes only, and shows a revocation', async () => {
      const wallet = await createAccount();
      const first = (await cli('key:create', '--wallet', wallet, '--json')).json;
      const second = (await cli('key:create', '--wallet', wallet, '--json')).json;
      expect((await cli('key:revoke', '--prefix', first.prefix, '--json')).code).toBe(0);

      const list = await cli('key:list', '--wallet', wallet, '--json');
      expect(list.json.walletAddress).toBe(wallet);
      expect(list.json.keys.map((k: { prefix: string }) => k.prefix)).toEqual([first.prefix, second.prefix]);
      for (const key of list.json.keys) expect(Object.keys(key).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'prefix', 'revokedAt']);
      expect(list.json.keys[0].revokedAt).toEqual(expect.any(String));
      expect(list.json.keys[1].revokedAt).toBeNull();
      expect(list.stdout.join('')).not.toContain(first.key);
    });

    it('reports an unknown prefix as NOT_FOUND', async () => {
      const run = await cli('key:revoke', '--prefix', 'mdk_NoSuchKy', '--json');
      expect(run.code).toBe(1);
      expect(run.json.error.code).toBe('NOT_FOUND');
    });
  });

  describe('command line', () => {
    it('names a missing option', async () => {
      const run = await cli('key:create', '--json');
      expect(run.code).toBe(2);
      expect(run.json.error).toEqual({ code: 'USAGE_ERROR', message: expect.stringContaining('missing --wallet') });
    });

    it('lists every command in the help, as text or JSON', async () => {
      const text = await cli('--help');
      expect(text.code).toBe(0);
      const names = [
        'account:create',
        'account:list',
        'account:set-tier',
        'credits:set',
        'key:create',
        'key:list',
        'key:revoke',
        'job:run',
        'job:status',
        'address:add',
        'asset:add',
        'rewards:publish-round',
        'rewards:mark-claimed',
      ];
      for (const name of names) expect(text.stdout.join('\n')).toContain(name);
      const json = await cli('--json');
      expect(json.json.commands.map((c: { name: string }) => c.name).sort()).toEqual([...names].sort());
    });
  });
});

describe(acquireEmbeddedLock.name, () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'embedded-lock-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the pid and removes the file on release', () => {
    const sut = acquireEmbeddedLock(dir, 'cli');
    expect(JSON.parse(readFileSync(join(dir, EMBEDDED_LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, owner: 'cli' });
    sut.release();
    expect(existsSync(join(dir, EMBEDDED_LOCK_FILE))).toBe(false);
  });

  it('refuses while a live process holds the folder, naming its pid', () => {
    writeFileSync(join(dir, EMBEDDED_LOCK_FILE), JSON.stringify({ pid: process.ppid, owner: 'server' }));
    expect(() => acquireEmbeddedLock(dir, 'cli')).toThrow(EmbeddedLockError);
    expect(() => acquireEmbeddedLock(dir, 'cli')).toThrow(new RegExp(`pid ${process.ppid}.*DATABASE_URL`));
  });

  it('replaces a lock whose process is gone', () => {
    writeFileSync(join(dir, EMBEDDED_LOCK_FILE), '2147483646\n');
    const sut = acquireEmbeddedLock(dir, 'server');
    expect(JSON.parse(readFileSync(join(dir, EMBEDDED_LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    sut.release();
  });
});
