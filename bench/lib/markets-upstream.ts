import { startSimulator } from '../../src/simulator/simulator.server';

/**
 * The upstream side of `npm run bench:markets`: the local simulator (CoinGecko, Binance, Yahoo and
 * Hyperliquid on one port), every request budget off, in a child process of its own so that the rare
 * upstream loads of the measured run (a fresh value every 30-60 s) neither run on the server's core nor in
 * the load generator. Prints `BENCH_READY {"port", "env"}`, `env` being the settings that point the app at it, and
 * serves until it is stopped.
 */
export async function serveUpstream(): Promise<void> {
  const sim = await startSimulator({
    wallets: Number(process.env.BENCH_SIM_WALLETS ?? 500),
    weightPerMinute: 0,
    coingeckoCallsPerMinute: 0,
    binanceWeightPerMinute: 0,
    yahooCallsPerMinute: 0,
  });
  process.stdout.write(`BENCH_READY ${JSON.stringify({ port: sim.port, env: sim.env })}\n`);
  const close = () => void sim.close().finally(() => process.exit(0));
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
}
