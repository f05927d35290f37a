import { parseArgs } from 'node:util';
import { DEFAULT_WALLETS, DEFAULT_WEIGHT_PER_MINUTE, startSimulator } from './simulator.server';
import { DEFAULT_PRICE_STEP_MS, DEFAULT_SEED } from './market';

const USAGE = `usage: npm run simulator -- [--port 7070] [--host 127.0.0.1] [--wallets ${DEFAULT_WALLETS}] [--seed ${DEFAULT_SEED}]
                             [--weight-per-minute ${DEFAULT_WEIGHT_PER_MINUTE} (0 = off)] [--price-step-ms ${DEFAULT_PRICE_STEP_MS}]`;

function intOption(values: Record<string, string | boolean | undefined>, name: string, fallback: number, min: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`--${name}: expected an integer >= ${min}, got "${String(raw)}"`);
  return value;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      wallets: { type: 'string' },
      seed: { type: 'string' },
      'weight-per-minute': { type: 'string' },
      'price-step-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const simulator = await startSimulator({
    port: intOption(values, 'port', 7070, 0),
    host: values.host ?? '127.0.0.1',
    wallets: intOption(values, 'wallets', DEFAULT_WALLETS, 2),
    seed: intOption(values, 'seed', DEFAULT_SEED, 0),
    weightPerMinute: intOption(values, 'weight-per-minute', DEFAULT_WEIGHT_PER_MINUTE, 0),
    priceStepMs: intOption(values, 'price-step-ms', DEFAULT_PRICE_STEP_MS, 1),
  });
  const { market } = simulator;
  process.stdout.write(
    `simulator listening on ${simulator.url} (info: /info, stats: /Mainnet) wallets=${market.walletCount} ` +
      `vaults=${market.vaultAddresses.length} positions=${market.positionCount} startup=${Math.round(market.startupMs)}ms\n`,
  );
  const stop = () => {
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`simulator: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
  process.exit(1);
});
