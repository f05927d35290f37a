import { createServer } from 'node:net';
import { simulatorEnv } from '../../src/simulator/protocol-registry';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator.server';
import { SIMULATED_SERVICE_BUILDER } from '../../src/simulator/world/builders';
import { freePort, runSimulatorCli } from '../support/child-process';
import { runJob } from '../support/hl-stack';
import { createTestApp, TestApp } from '../support/create-test-app';
import { testConfig } from '../support/test-env';

const ENV_LINE = /^[A-Z][A-Z0-9_]*=\S*$/;

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolveFree) => {
    const server = createServer()
      .once('error', () => resolveFree(false))
      .listen(port, '127.0.0.1', () => server.close(() => resolveFree(true)));
  });
}

/** NAME=value lines into an object; throws on anything else, as a caller reading the output would. */
function parseEnvLines(stdout: string): Record<string, string> {
  const lines = stdout.split('\n');
  expect(lines.pop()).toBe('');
  return Object.fromEntries(
    lines.map((line) => {
      if (!ENV_LINE.test(line)) throw new Error(`not a NAME=value line: ${JSON.stringify(line)}`);
      const at = line.indexOf('=');
      return [line.slice(0, at), line.slice(at + 1)];
    }),
  );
}

describe('npm run -s simulator -- --print-env', () => {
  it('prints only NAME=value lines pointing the providers at that port, and exits 0 without listening', async () => {
    const port = await freePort();
    const sut = await runSimulatorCli(['--port', String(port), '--print-env'], 30_000);
    expect(sut.code).toBe(0);
    const env = parseEnvLines(sut.stdout);
    expect(env).toMatchObject({
      HYPERLIQUID_INFO_URL: `http://127.0.0.1:${port}/info`,
      HYPERLIQUID_STATS_URL: `http://127.0.0.1:${port}/Mainnet`,
      HYPERLIQUID_WEIGHT_PER_MINUTE: '1200',
      BUILDER_ADDRESS: SIMULATED_SERVICE_BUILDER,
    });
    expect(env).toEqual(simulatorEnv(`http://127.0.0.1:${port}`));
    expect(await portIsFree(port)).toBe(true);
  }, 60_000);

  it('follows the options the simulator will run with', async () => {
    const port = await freePort();
    const builder = '0x' + 'ab'.repeat(20);
    const sut = await runSimulatorCli(
      ['--port', String(port), '--host', 'localhost', '--weight-per-minute', '0', '--service-builder', builder, '--print-env'],
      30_000,
    );
    expect(sut.code).toBe(0);
    expect(parseEnvLines(sut.stdout)).toMatchObject({
      HYPERLIQUID_INFO_URL: `http://localhost:${port}/info`,
      HYPERLIQUID_WEIGHT_PER_MINUTE: '0',
      BUILDER_ADDRESS: builder,
    });
  }, 60_000);

  it('refuses port 0, which no line could name, with nothing on stdout', async () => {
    const sut = await runSimulatorCli(['--port', '0', '--print-env'], 30_000);
    expect(sut.code).toBe(1);
    expect(sut.stdout).toBe('');
    expect(sut.stderr).toContain('--print-env');
  }, 60_000);
});

describe('a service pointed at a running simulator by exactly the printed lines', () => {
  let sim: RunningSimulator;
  let t: TestApp;

  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  it('reads the market from it', async () => {
    const port = await freePort();
    sim = await startSimulator({ port, wallets: 50, seed: 3 });
    const printed = await runSimulatorCli(['--port', String(port), '--print-env'], 30_000);
    expect(printed.code).toBe(0);
    t = await createTestApp(testConfig(parseEnvLines(printed.stdout)));
    const counters = sim.protocols.hyperliquid.counters;
    expect(counters.requestsByType).toEqual({});

    const result = await runJob(t, 'hl.markets');
    expect(result.status).toBe('ok');
    expect(Object.values(counters.requestsByType).reduce((sum, n) => sum + n, 0)).toBeGreaterThan(0);
    expect(counters.weightSpent).toBeGreaterThan(0);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM hl_markets WHERE coin = 'xyz:TSLA'`);
    expect(n).toBe(1);
  }, 90_000);
});
