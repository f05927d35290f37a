import { parseArgs } from 'node:util';
import { registeredProtocols, simulatorEnv } from './protocol-registry';
import { BINANCE_SPOT_WEIGHT_PER_MINUTE } from './binance/binance-handler';
import { COINGECKO_DEMO_CALLS_PER_MINUTE } from './coingecko/coingecko-handler';
import { MAINNET_WEIGHT_PER_MINUTE } from './hyperliquid/hyperliquid-handler';
import { startSimulator } from './simulator.server';
import { DEFAULT_HOST, DEFAULT_PORT, DEFAULT_WALLETS, SimulatorOptions, simulatorUrl } from './simulator-options';
import { signInWallets } from './sign-in-wallets';
import { SIMULATED_SERVICE_BUILDER } from './world/builders';
import { DEFAULT_PRICE_STEP_MS, DEFAULT_SEED, SimWorld } from './world/sim-world';
import { DEFAULT_CRUMB_TTL_MS } from './yahoo/crumb-sessions';
import { YAHOO_DEFAULT_CALLS_PER_MINUTE } from './yahoo/yahoo-handler';

const USAGE = `usage: npm run simulator -- [--port ${DEFAULT_PORT}] [--host ${DEFAULT_HOST}] [--wallets ${DEFAULT_WALLETS}] [--seed ${DEFAULT_SEED}]
                             [--service-builder ${SIMULATED_SERVICE_BUILDER} (the service's builder address)]
                             [--weight-per-minute ${MAINNET_WEIGHT_PER_MINUTE} (0 = off)] [--price-step-ms ${DEFAULT_PRICE_STEP_MS}]
                             [--coingecko-calls-per-minute ${COINGECKO_DEMO_CALLS_PER_MINUTE}] [--binance-weight-per-minute ${BINANCE_SPOT_WEIGHT_PER_MINUTE}]
                             [--yahoo-calls-per-minute ${YAHOO_DEFAULT_CALLS_PER_MINUTE}] (limits: 0 = off) [--yahoo-crumb-ttl-ms ${DEFAULT_CRUMB_TTL_MS}]
       npm run -s simulator -- --port <P> [same options] --print-env
         prints the service settings (NAME=value, one a line) that point it at a simulator started with these options, and exits
       npm run -s simulator -- [--wallets W] [--seed S] --print-wallets N   prints N traders as JSON [{address, privateKey}] (test keys; the service's builder clients first) to sign in with, and exits`;

type Values = Record<string, string | boolean | undefined>;
type CliOptions = SimulatorOptions & { port: number; host: string; wallets: number; seed: number };
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function intOption(values: Values, name: string, fallback: number, min: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`--${name}: expected an integer >= ${min}, got "${String(raw)}"`);
  return value;
}

function addressOption(values: Values, name: string, fallback: string): string {
  const raw = values[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !ADDRESS.test(raw)) throw new Error(`--${name}: expected a 0x address of 40 hex digits, got "${String(raw)}"`);
  return raw.toLowerCase();
}

function optionsOf(values: Values): CliOptions {
  return {
    port: intOption(values, 'port', DEFAULT_PORT, 0),
    host: typeof values.host === 'string' ? values.host : DEFAULT_HOST,
    wallets: intOption(values, 'wallets', DEFAULT_WALLETS, 2),
    seed: intOption(values, 'seed', DEFAULT_SEED, 0),
    serviceBuilder: addressOption(values, 'service-builder', SIMULATED_SERVICE_BUILDER),
    weightPerMinute: intOption(values, 'weight-per-minute', MAINNET_WEIGHT_PER_MINUTE, 0),
    priceStepMs: intOption(values, 'price-step-ms', DEFAULT_PRICE_STEP_MS, 1),
    coingeckoCallsPerMinute: intOption(values, 'coingecko-calls-per-minute', COINGECKO_DEMO_CALLS_PER_MINUTE, 0),
    binanceWeightPerMinute: intOption(values, 'binance-weight-per-minute', BINANCE_SPOT_WEIGHT_PER_MINUTE, 0),
    yahooCallsPerMinute: intOption(values, 'yahoo-calls-per-minute', YAHOO_DEFAULT_CALLS_PER_MINUTE, 0),
    yahooCrumbTtlMs: intOption(values, 'yahoo-crumb-ttl-ms', DEFAULT_CRUMB_TTL_MS, 1),
  };
}

/** Only the settings on stdout, so `export $(npm run -s simulator -- --port P --print-env)` and scripts can use it. */
function printEnv(options: CliOptions): void {
  // Port 0 means "any free port", which is only known once listening: the lines could not name it.
  if (options.port === 0) throw new Error('--print-env: needs the fixed --port the simulator will listen on');
  const env = simulatorEnv(simulatorUrl(options.host, options.port), options);
  process.stdout.write(
    Object.entries(env)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(''),
  );
}

/** Only the JSON on stdout, so tests and scripts can parse it; the keys are the world's, so they follow --seed and --wallets. */
function printWallets(options: CliOptions, values: Values): void {
  const count = intOption(values, 'print-wallets', 1, 1);
  if (count > options.wallets) throw new Error(`--print-wallets: at most --wallets (${options.wallets}) traders exist`);
  const world = new SimWorld({ wallets: options.wallets, seed: options.seed, priceStepMs: options.priceStepMs, serviceBuilder: options.serviceBuilder });
  process.stdout.write(`${JSON.stringify(signInWallets(world, count), null, 2)}\n`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      wallets: { type: 'string' },
      seed: { type: 'string' },
      'service-builder': { type: 'string' },
      'weight-per-minute': { type: 'string' },
      'price-step-ms': { type: 'string' },
      'coingecko-calls-per-minute': { type: 'string' },
      'binance-weight-per-minute': { type: 'string' },
      'yahoo-calls-per-minute': { type: 'string' },
      'yahoo-crumb-ttl-ms': { type: 'string' },
      'print-env': { type: 'boolean' },
      'print-wallets': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const options = optionsOf(values);
  if (values['print-env']) return printEnv(options);
  if (values['print-wallets'] !== undefined) return printWallets(options, values);
  const simulator = await startSimulator(options);
  const { world } = simulator;
  const protocols = registeredProtocols()
    .map((protocol) => protocol.summary)
    .join('; ');
  process.stdout.write(
    `simulator listening on ${simulator.url} (${protocols}) wallets=${world.walletCount} ` +
      `vaults=${world.vaultAddresses.length} positions=${world.positionCount} coins=${world.markets.coins.length} ` +
      `listings=${world.markets.listings.length} startup=${Math.round(world.startupMs)}ms\n`,
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
