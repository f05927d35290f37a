import { computeAddress, keccak256, toUtf8Bytes, Wallet } from 'ethers';
import { SIMULATED_SERVICE_BUILDER, simulatedOpcBuilders, OPC_BUILDER_COUNT } from './builders';
import { simulatedAddresses, simulatedPrivateKey } from './wallet-keys';

const SEED = 42;
const ADDRESS = /^0x[0-9a-f]{40}$/;

describe(simulatedAddresses.name, () => {
  it('gives the address of the ethers wallet of each derived key, across batch boundaries', () => {
    const sut = simulatedAddresses({ seed: SEED, kind: 'wallet' }, 600);
    expect(sut).toHaveLength(600);
    for (const index of [0, 1, 2, 3, 100, 254, 255, 256, 257, 511, 512, 513, 599]) {
      expect(new Wallet(simulatedPrivateKey({ seed: SEED, kind: 'wallet' }, index)).address.toLowerCase()).toBe(sut[index]);
    }
    for (const address of sut) expect(address).toMatch(ADDRESS);
    expect(new Set(sut).size).toBe(600);
  });

  it('is the same for the same seed, and unrelated across seeds and families', () => {
    const sut = simulatedAddresses({ seed: SEED, kind: 'wallet' }, 10);
    expect(simulatedAddresses({ seed: SEED, kind: 'wallet' }, 10)).toEqual(sut);
    expect(simulatedAddresses({ seed: SEED, kind: 'wallet' }, 300).slice(0, 10)).toEqual(sut);
    const others = [
      ...simulatedAddresses({ seed: SEED + 1, kind: 'wallet' }, 10),
      ...simulatedAddresses({ seed: SEED, kind: 'vault' }, 10),
      ...simulatedAddresses({ seed: SEED, kind: 'builder' }, 10),
    ];
    expect(others.filter((address) => sut.includes(address))).toEqual([]);
  });

  it('writes keys as ethers takes them: 0x and 64 hex digits, none repeated', () => {
    const keys = [0, 1, 2, 3].map((index) => simulatedPrivateKey({ seed: SEED, kind: 'wallet' }, index));
    for (const key of keys) expect(key).toMatch(/^0x[0-9a-f]{64}$/);
    expect(new Set(keys).size).toBe(4);
  });
});

describe('builder addresses', () => {
  it('documents SIMULATED_SERVICE_BUILDER as the address of keccak256("hyperliquid-simulator:service-builder")', () => {
    expect(SIMULATED_SERVICE_BUILDER).toBe(computeAddress(keccak256(toUtf8Bytes('hyperliquid-simulator:service-builder'))).toLowerCase());
  });

  it('derives the OPC builders from the seed like the wallets', () => {
    const sut = simulatedOpcBuilders(SEED);
    expect(sut).toHaveLength(OPC_BUILDER_COUNT);
    expect(sut).toEqual(simulatedOpcBuilders(SEED));
    expect(sut).not.toEqual(simulatedOpcBuilders(SEED + 1));
    sut.forEach((address, k) => {
      expect(address).toMatch(ADDRESS);
      expect(new Wallet(simulatedPrivateKey({ seed: SEED, kind: 'builder' }, k)).address.toLowerCase()).toBe(address);
    });
    expect(sut).not.toContain(SIMULATED_SERVICE_BUILDER);
  });
});
