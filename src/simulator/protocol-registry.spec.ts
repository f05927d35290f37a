import { prefixClash, registeredProtocols, simulatorEnv } from './protocol-registry';
import { SimulatorProtocol } from './simulator-protocol';

function fakeProtocol(name: string, prefixes: string[], env: Record<string, string> = {}): SimulatorProtocol {
  return {
    name,
    prefixes,
    summary: name,
    env: () => env,
    start: () => ({ handle: async () => undefined }),
  };
}

describe(simulatorEnv.name, () => {
  const base = 'http://127.0.0.1:7171';

  it('points the Hyperliquid client at the simulator: the info URL and the stats host under the base URL', () => {
    const sut = simulatorEnv(base);
    expect(sut.HYPERLIQUID_INFO_URL).toBe('http://127.0.0.1:7171/info');
    expect(sut.HYPERLIQUID_STATS_URL).toBe('http://127.0.0.1:7171/Mainnet');
  });

  it("budgets the service at the simulator's weight limit: mainnet's by default, off when the limit is off", () => {
    expect(simulatorEnv(base).HYPERLIQUID_WEIGHT_PER_MINUTE).toBe('1200');
    expect(simulatorEnv(base, { weightPerMinute: 60_000 }).HYPERLIQUID_WEIGHT_PER_MINUTE).toBe('60000');
    expect(simulatorEnv(base, { weightPerMinute: 0 }).HYPERLIQUID_WEIGHT_PER_MINUTE).toBe('0');
  });

  it('points the market clients at their own prefixes, so the two /api/v3 never meet', () => {
    const sut = simulatorEnv(base);
    expect(sut).toMatchObject({
      COINGECKO_API_URL: 'http://127.0.0.1:7171/coingecko/api/v3',
      BINANCE_API_URL: 'http://127.0.0.1:7171/binance',
      YAHOO_QUERY_URL: 'http://127.0.0.1:7171/yahoo',
      YAHOO_COOKIE_URL: 'http://127.0.0.1:7171/yahoo/cookie',
    });
  });

  it("budgets the market clients at the simulator's limits: the upstreams' by default, as set otherwise", () => {
    expect(simulatorEnv(base)).toMatchObject({ COINGECKO_CALLS_PER_MINUTE: '30', BINANCE_WEIGHT_PER_MINUTE: '6000', YAHOO_CALLS_PER_MINUTE: '60' });
    const options = { coingeckoCallsPerMinute: 0, binanceWeightPerMinute: 1000, yahooCallsPerMinute: 5 };
    expect(simulatorEnv(base, options)).toMatchObject({ COINGECKO_CALLS_PER_MINUTE: '0', BINANCE_WEIGHT_PER_MINUTE: '1000', YAHOO_CALLS_PER_MINUTE: '5' });
  });

  it('names only environment variables, with values on one line', () => {
    for (const [name, value] of Object.entries(simulatorEnv(base))) {
      expect(name).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(value).not.toMatch(/[\r\n]/);
    }
  });

  it('is the union of every protocol it is given', () => {
    const sut = simulatorEnv(base, {}, [fakeProtocol('a', ['/a'], { A_URL: 'x' }), fakeProtocol('b', ['/b'], { B_URL: 'y' })]);
    expect(sut).toEqual({ A_URL: 'x', B_URL: 'y' });
  });

  it('refuses two protocols that set the same variable', () => {
    const protocols = [fakeProtocol('a', ['/a'], { SHARED_URL: 'x' }), fakeProtocol('b', ['/b'], { SHARED_URL: 'y' })];
    expect(() => simulatorEnv(base, {}, protocols)).toThrow(/b and a both set SHARED_URL/);
  });
});

describe(prefixClash.name, () => {
  it('finds none among the registered protocols', () => {
    expect(prefixClash(registeredProtocols())).toBeNull();
  });

  it('finds a prefix equal to or nested under another protocol', () => {
    expect(prefixClash([fakeProtocol('a', ['/api']), fakeProtocol('b', ['/api'])])).toMatch(/\/api/);
    expect(prefixClash([fakeProtocol('a', ['/api']), fakeProtocol('b', ['/api/v3'])])).toBe('b /api/v3 lies under a /api');
  });

  it('matches whole path segments only', () => {
    expect(prefixClash([fakeProtocol('a', ['/info']), fakeProtocol('b', ['/infos'])])).toBeNull();
  });
});
