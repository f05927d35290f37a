import { BINANCE_PROTOCOL } from './binance/binance.protocol';
import { COINGECKO_PROTOCOL } from './coingecko/coingecko.protocol';
import { HYPERLIQUID_PROTOCOL } from './hyperliquid/hyperliquid.protocol';
import { NEWS_PROTOCOL } from './news/news.protocol';
import { SEC_PROTOCOL } from './sec/sec.protocol';
import { SimulatorOptions } from './simulator-options';
import { YAHOO_PROTOCOL } from './yahoo/yahoo.protocol';
import { SimulatorProtocol, StartedProtocol } from './simulator-protocol';

/** Every protocol the simulator speaks, each under its own path prefixes, all on one port over one world. */
export const SIMULATOR_PROTOCOLS = {
  hyperliquid: HYPERLIQUID_PROTOCOL,
  coingecko: COINGECKO_PROTOCOL,
  binance: BINANCE_PROTOCOL,
  yahoo: YAHOO_PROTOCOL,
  sec: SEC_PROTOCOL,
  news: NEWS_PROTOCOL,
};

export type ProtocolName = keyof typeof SIMULATOR_PROTOCOLS;
export type StartedProtocols = { [Name in ProtocolName]: ReturnType<(typeof SIMULATOR_PROTOCOLS)[Name]['start']> };

export function registeredProtocols(): SimulatorProtocol[] {
  return Object.values(SIMULATOR_PROTOCOLS);
}

/** True when `path` is `prefix` or lies under it, on whole segments. */
export function underPrefix(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** The first pair of prefixes that would route the same path to two protocols, as a message; null if none. */
export function prefixClash(protocols: readonly SimulatorProtocol[]): string | null {
  const owned = protocols.flatMap((protocol) => protocol.prefixes.map((prefix) => ({ prefix, name: protocol.name })));
  for (const a of owned) {
    for (const b of owned) {
      if (a !== b && underPrefix(a.prefix, b.prefix)) return `${a.name} ${a.prefix} lies under ${b.name} ${b.prefix}`;
    }
  }
  return null;
}

/**
 * Every setting that points the service's providers at a simulator at `baseUrl` started with `options`: the
 * union of the protocols' lines. `--print-env` prints it; the demo, tests and benchmarks apply it in-process.
 */
export function simulatorEnv(baseUrl: string, options: SimulatorOptions = {}, protocols = registeredProtocols()): Record<string, string> {
  const env: Record<string, string> = {};
  const owner: Record<string, string> = {};
  for (const protocol of protocols) {
    for (const [name, value] of Object.entries(protocol.env(baseUrl, options))) {
      if (name in owner) throw new Error(`simulator: ${protocol.name} and ${owner[name]} both set ${name}`);
      owner[name] = protocol.name;
      env[name] = value;
    }
  }
  return env;
}

/** Starts every registered protocol on the world; the result is typed by name (`started.hyperliquid.counters`). */
export function startProtocols(start: (protocol: SimulatorProtocol) => StartedProtocol): StartedProtocols {
  return Object.fromEntries(Object.entries(SIMULATOR_PROTOCOLS).map(([name, protocol]) => [name, start(protocol)])) as StartedProtocols;
}
