import { hash2, unit } from './prng';
import { simulatedAddresses } from './wallet-keys';

/**
 * The service's builder address unless the simulator is told another: the address of the test key
 * keccak256("hyperliquid-simulator:service-builder"), the same for every seed.
 */
export const SIMULATED_SERVICE_BUILDER = '0x13a68ef26d093f9fc65fa4c8c8203ecb4277f02b';
/** Other front-ends (OPCs) whose builder codes the simulated traders also use. */
export const OPC_BUILDER_COUNT = 3;
/** Builder fee rates `f` are in tenths of a basis point (10 = 1 bp); a perp order may carry at most 0.1 %. */
export const MAX_PERP_BUILDER_FEE_RATE = 100;
/** Share of the builder-attributed positions traded through the service rather than an OPC. */
const SERVICE_SHARE = 0.7;
/**
 * The service's rates: its frontend attaches the base rate (1 bp, the service's default BUILDER_BASE_FEE_TENTHS_BPS)
 * or the rate after a VIP tier's discount (Pro 10 %, Max 20 %); each wallet pays one of them on all its orders.
 */
const SERVICE_FEE_RATES = [10, 10, 10, 9, 8];
const OPC_MIN_FEE_RATE = 10;
const OPC_MAX_FEE_RATE = 50;

/** An order's builder code as the exchange takes it: the builder `b` (lower-case) and the rate `f`. */
export interface BuilderCode {
  b: string;
  f: number;
}

export interface WorldBuilders {
  service: string;
  /** Each OPC with the one rate it charges. */
  opcs: BuilderCode[];
}

/** The OPC builder addresses of a world (lower-case), derived from its seed like its wallets. */
export function simulatedOpcBuilders(seed: number): string[] {
  return simulatedAddresses({ seed, kind: 'builder' }, OPC_BUILDER_COUNT);
}

export function worldBuilders(seed: number, service: string = SIMULATED_SERVICE_BUILDER): WorldBuilders {
  return {
    service: service.toLowerCase(),
    opcs: simulatedOpcBuilders(seed).map((b, k) => ({
      b,
      f: OPC_MIN_FEE_RATE + (hash2(seed ^ 0x0bc, k) % (OPC_MAX_FEE_RATE - OPC_MIN_FEE_RATE + 1)),
    })),
  };
}

/** The builder of a builder-attributed position: mostly the service at the wallet's rate, else an OPC at its own. */
export function pickBuilder(builders: WorldBuilders, { walletSeed, slotSeed }: { walletSeed: number; slotSeed: number }): BuilderCode {
  const u = unit(hash2(slotSeed, 0xb1d));
  if (u < SERVICE_SHARE) return { b: builders.service, f: SERVICE_FEE_RATES[hash2(walletSeed, 0xfee) % SERVICE_FEE_RATES.length] };
  const k = Math.floor(((u - SERVICE_SHARE) / (1 - SERVICE_SHARE)) * builders.opcs.length);
  return builders.opcs[Math.min(k, builders.opcs.length - 1)];
}
