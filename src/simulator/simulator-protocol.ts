import { IncomingMessage, ServerResponse } from 'node:http';
import { SimulatorOptions } from './simulator-options';
import { SimWorld } from './world/sim-world';

export interface ProtocolContext {
  world: SimWorld;
  options: SimulatorOptions;
  clock: () => number;
}

/** A protocol running on one simulator: answers every request under its prefixes. */
export interface StartedProtocol {
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
}

/**
 * One upstream vendor's protocol over the shared world. Each lives in its own folder (<vendor>/) and is listed once in
 * the protocol registry; the server routes to it by path prefix.
 */
export interface SimulatorProtocol<Started extends StartedProtocol = StartedProtocol> {
  readonly name: string;
  /** Path prefixes it answers under, matched on whole segments: '/info' takes '/info' and '/info/x', not '/infos'. */
  readonly prefixes: readonly string[];
  /** Where it answers, for the start banner, e.g. 'info: /info, stats: /Mainnet'. */
  readonly summary: string;
  /** The service settings (`NAME` -> value) that point its provider at this protocol on a simulator at baseUrl. */
  env(baseUrl: string, options: SimulatorOptions): Record<string, string>;
  start(context: ProtocolContext): Started;
}
