import { INestApplicationContext } from '@nestjs/common';
import type { EmbeddedServerEndpoint } from '../infra/database/embedded-lock';
import { AccountAdminService, normalizeWallet } from '../modules/account/account-admin.service';
import { TIER_NAMES } from '../modules/billing/billing.public';
import { formatTable, toAccountView, toKeyView } from './cli-views';
import { HL_COMMANDS } from './hl-commands';
import { MARKETS_COMMANDS } from './markets-commands';
import { REWARDS_COMMANDS } from './rewards-commands';

/** Every option a command can take; a command lists which it requires and which are optional. */
export const OPTION_VALUES = {
  wallet: '<0x address>',
  tier: TIER_NAMES.join('|'),
  amount: '<decimal>',
  prefix: '<key prefix>',
  address: '<0x address>',
  tags: '<tag,tag>',
  sector: '<label>',
  industry: '<label>',
  program: 'referral|opc',
  round: '<round id>',
} as const;

export type OptionName = keyof typeof OPTION_VALUES;
export type CommandArgs = Record<OptionName, string> & { positional?: string };

/**
 * `json` is merged into `{ ok: true, ... }` under --json; `text` is printed line by line otherwise.
 * `failed`: the command ran but what it ran failed in part (a job's fan-out): printed all the same, with
 * `ok: false`, and the CLI exits 1.
 */
export interface CommandOutput {
  json: Record<string, unknown>;
  text: string[];
  failed?: boolean;
}

export interface CliCommand {
  summary: string;
  /** Required options. */
  options: readonly OptionName[];
  optional?: readonly OptionName[];
  /** Name of the one positional argument the command takes, if any (`job:run <name>`). */
  positional?: string;
  run(app: INestApplicationContext, args: CommandArgs): Promise<CommandOutput>;
  /**
   * The same answer from a live server that holds the embedded database (the CLI cannot open it then); only
   * read-only commands have one.
   */
  runOnServer?(server: EmbeddedServerEndpoint, args: CommandArgs): Promise<CommandOutput>;
}

const admin = (app: INestApplicationContext) => app.get(AccountAdminService);

/** The ops commands: a thin shell over the services, which own every rule and validation. */
export const COMMANDS: Record<string, CliCommand> = {
  'account:create': {
    summary: 'Create an account (paid tiers start with their monthly quota)',
    options: ['wallet', 'tier'],
    async run(app, { wallet, tier }) {
      const account = toAccountView(await admin(app).createAccount({ wallet, tier }));
      return {
        json: { account },
        text: [`created account ${account.walletAddress} (tier ${account.tier}, balance ${account.creditBalance})`],
      };
    },
  },
  'account:list': {
    summary: 'List accounts with their settled balance and active key count',
    options: [],
    async run(app) {
      const accounts = (await admin(app).listAccounts()).map(toAccountView);
      const rows = accounts.map((a) => [a.walletAddress, a.tier, a.creditBalance, String(a.activeKeys ?? 0), a.createdAt]);
      return {
        json: { accounts },
        text: accounts.length === 0 ? ['no accounts'] : formatTable(['WALLET', 'TIER', 'BALANCE', 'KEYS', 'CREATED'], rows),
      };
    },
  },
  'account:set-tier': {
    summary: "Set the tier; the balance becomes the new tier's quota for the rest of this period",
    options: ['wallet', 'tier'],
    async run(app, { wallet, tier }) {
      const account = toAccountView(await admin(app).setTier({ wallet, tier }));
      return {
        json: { account },
        text: [`${account.walletAddress} is now on tier ${account.tier} (balance ${account.creditBalance})`],
      };
    },
  },
  'credits:set': {
    summary: 'Grant or reset credits: set the balance of the current period',
    options: ['wallet', 'amount'],
    async run(app, { wallet, amount }) {
      const account = toAccountView(await admin(app).setCredits({ wallet, amount }));
      return { json: { account }, text: [`${account.walletAddress} balance set to ${account.creditBalance}`] };
    },
  },
  'key:create': {
    summary: 'Issue an API key; the key is printed once and cannot be shown again',
    options: ['wallet'],
    async run(app, { wallet }) {
      const created = await admin(app).createKey({ wallet });
      const view = { ...created, createdAt: created.createdAt.toISOString() };
      return {
        json: view,
        text: [`API key for ${view.walletAddress} (prefix ${view.prefix}):`, `  ${view.key}`, 'This is the only time the key is shown; store it now.'],
      };
    },
  },
  'key:list': {
    summary: "List an account's keys (prefixes only)",
    options: ['wallet'],
    async run(app, { wallet }) {
      const keys = (await admin(app).listKeys({ wallet })).map(toKeyView);
      const walletAddress = normalizeWallet(wallet);
      const rows = keys.map((k) => [k.prefix, k.revokedAt ? 'revoked' : 'active', k.createdAt, k.lastUsedAt ?? '-', k.revokedAt ?? '-']);
      return {
        json: { walletAddress, keys },
        text: keys.length === 0 ? [`no keys for ${walletAddress}`] : formatTable(['PREFIX', 'STATUS', 'CREATED', 'LAST USED', 'REVOKED'], rows),
      };
    },
  },
  'key:revoke': {
    summary: 'Revoke a key by its prefix; every replica refuses it within API_KEY_CACHE_TTL_MS',
    options: ['prefix'],
    async run(app, { prefix }) {
      const key = toKeyView(await admin(app).revokeKey({ prefix }));
      return { json: { ...key }, text: [`revoked ${key.prefix} (at ${key.revokedAt})`] };
    },
  },
  ...HL_COMMANDS,
  ...MARKETS_COMMANDS,
  ...REWARDS_COMMANDS,
};
