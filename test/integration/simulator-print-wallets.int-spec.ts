import { Wallet } from 'ethers';
import { startSimulator } from '../../src/simulator/simulator.server';
import { SIMULATED_SERVICE_BUILDER } from '../../src/simulator/world/builders';
import { Finished, runSimulatorCli } from '../support/child-process';

// Each run compiles the simulator with ts-node; three run at once in one test.
const CLI_TIMEOUT_MS = 90_000;
const WALLETS = 20;
const SEED = 7;

/** The printed wallets; throws when stdout holds anything but one JSON value, as a script parsing it would. */
function printedWallets({ code, stdout, stderr }: Finished): Array<{ address: string; privateKey: string }> {
  if (code !== 0) throw new Error(`exited ${code}:\n${stderr}`);
  return JSON.parse(stdout);
}

/** The addresses the running simulator's own world gives its traders: the service builder's clients, then the others. */
async function traders({ wallets, seed }: { wallets: number; seed: number }): Promise<{ clients: string[]; others: string[] }> {
  const sim = await startSimulator({ wallets, seed });
  try {
    const { world } = sim;
    const clientIndexes = new Set(world.clientsOf(SIMULATED_SERVICE_BUILDER));
    return {
      clients: world.addresses.filter((_, index) => clientIndexes.has(index)),
      others: world.addresses.filter((_, index) => !clientIndexes.has(index)),
    };
  } finally {
    await sim.close();
  }
}

describe('npm run -s simulator -- --print-wallets', () => {
  it(
    'prints only a JSON array of N {address, privateKey} whose keys sign for their addresses, the service builder’s clients first',
    async () => {
      const { clients, others } = await traders({ wallets: WALLETS, seed: SEED });
      // Enough wallets to print every client and then some of the others.
      const count = clients.length + 2;
      expect(clients.length).toBeGreaterThan(0);
      expect(count).toBeLessThanOrEqual(WALLETS);

      const wallets = printedWallets(await runSimulatorCli(['--print-wallets', String(count), '--seed', String(SEED), '--wallets', String(WALLETS)]));

      expect(wallets).toHaveLength(count);
      for (const wallet of wallets) {
        expect(Object.keys(wallet).sort()).toEqual(['address', 'privateKey']);
        expect(wallet.address).toBe(new Wallet(wallet.privateKey).address.toLowerCase());
      }
      expect(wallets.map((w) => w.address)).toEqual([...clients, ...others.slice(0, 2)]);
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'prints the same wallets for the same seed, and others for another seed',
    async () => {
      const [first, again, otherSeed] = await Promise.all(
        [SEED, SEED, SEED + 1].map((seed) => runSimulatorCli(['--print-wallets', '5', '--seed', String(seed), '--wallets', String(WALLETS)])),
      );

      expect(printedWallets(again)).toEqual(printedWallets(first));
      const firstAddresses = new Set(printedWallets(first).map((w) => w.address));
      expect(printedWallets(otherSeed)).toHaveLength(5);
      expect(printedWallets(otherSeed).filter((w) => firstAddresses.has(w.address))).toEqual([]);
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'refuses more wallets than --wallets with a non-zero exit and nothing on stdout',
    async () => {
      const sut = await runSimulatorCli(['--print-wallets', String(WALLETS + 1), '--wallets', String(WALLETS)]);

      expect(sut.code).toBe(1);
      expect(sut.stdout).toBe('');
      expect(sut.stderr).toContain('--print-wallets');
    },
    CLI_TIMEOUT_MS,
  );
});
