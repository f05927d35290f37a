import { loadAppConfig } from './app.config';
import { configProblemsOf as problemsOf, PRODUCTION_SECRETS } from '../../test/support/config-kit';

const USER_AGENT = 'Sample Company Name AdminContact@example.com';
const PRODUCTION = { NODE_ENV: 'production', ...PRODUCTION_SECRETS };

describe('loadAppConfig: stock vendors', () => {
  it('starts a newcomer with nothing configured, filings switched off rather than refused', () => {
    for (const NODE_ENV of ['development', 'test', 'production']) {
      const raw = NODE_ENV === 'production' ? PRODUCTION : { NODE_ENV };
      expect(loadAppConfig(raw).stockVendors.filingsVendor).toBe('none');
    }
  });

  it('takes SEC as the filings vendor once a User-Agent is declared', () => {
    expect(loadAppConfig({ SEC_USER_AGENT: USER_AGENT }).stockVendors).toEqual({
      filingsVendor: 'sec',
      sec: {
        userAgent: USER_AGENT,
        dataUrl: 'https://data.sec.gov',
        filesUrl: 'https://www.sec.gov',
        archivesUrl: 'https://www.sec.gov',
        requestsPerSecond: 8,
      },
    });
  });

  it.each(['development', 'test', 'production'])('refuses STOCK_FILINGS_VENDOR=sec without SEC_USER_AGENT in %s, naming it', (NODE_ENV) => {
    const problems = problemsOf({ ...PRODUCTION, NODE_ENV, STOCK_FILINGS_VENDOR: 'sec' });
    expect(problems).toEqual([expect.stringMatching(/^SEC_USER_AGENT: SEC_USER_AGENT must be set when STOCK_FILINGS_VENDOR is sec/)]);
  });

  it('treats an empty SEC_USER_AGENT= (as .env.example leaves it) as missing', () => {
    expect(problemsOf({ STOCK_FILINGS_VENDOR: 'sec', SEC_USER_AGENT: '' })).toEqual([expect.stringMatching(/SEC_USER_AGENT must be set/)]);
    expect(loadAppConfig({ SEC_USER_AGENT: '', STOCK_FILINGS_VENDOR: '' }).stockVendors.filingsVendor).toBe('none');
  });

  it.each(['MarketDataApi', 'admin at example dot com', `${'x'.repeat(190)} admin@example.com`])(
    'refuses a User-Agent SEC would not accept as declared: %s',
    (userAgent) => {
      expect(problemsOf({ SEC_USER_AGENT: userAgent })).toEqual([
        expect.stringMatching(/^SEC_USER_AGENT: SEC_USER_AGENT must name the company and a contact email/),
      ]);
    },
  );

  it('checks a declared User-Agent even when filings are switched off', () => {
    expect(problemsOf({ STOCK_FILINGS_VENDOR: 'none', SEC_USER_AGENT: 'no-contact' })).toHaveLength(1);
    expect(loadAppConfig({ STOCK_FILINGS_VENDOR: 'none', SEC_USER_AGENT: USER_AGENT }).stockVendors.filingsVendor).toBe('none');
  });

  it('accepts a User-Agent without spaces, as the simulator prints it for `export $(...)`', () => {
    expect(loadAppConfig({ SEC_USER_AGENT: 'MarketDataApiSimulator(admin@example.com)' }).stockVendors.sec.userAgent).toBe(
      'MarketDataApiSimulator(admin@example.com)',
    );
  });

  it('reads the hosts without a trailing slash and the per-second budget', () => {
    const { sec } = loadAppConfig({
      SEC_USER_AGENT: USER_AGENT,
      SEC_DATA_URL: 'http://127.0.0.1:7070/sec/',
      SEC_FILES_URL: 'http://127.0.0.1:7070/sec/',
      SEC_REQUESTS_PER_SECOND: '5',
    }).stockVendors;
    expect(sec).toMatchObject({ dataUrl: 'http://127.0.0.1:7070/sec', filesUrl: 'http://127.0.0.1:7070/sec', requestsPerSecond: 5 });
  });

  it.each(['0', '11', 'fast'])('refuses SEC_REQUESTS_PER_SECOND=%s: at least one, never past the SEC limit of 10', (text) => {
    expect(() => loadAppConfig({ SEC_REQUESTS_PER_SECOND: text })).toThrow(/SEC_REQUESTS_PER_SECOND/);
  });

  it.each([
    ['STOCK_FILINGS_VENDOR', 'edgar'],
    ['SEC_DATA_URL', 'data.sec.gov'],
    ['SEC_FILES_URL', 'not a url'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => loadAppConfig({ SEC_USER_AGENT: USER_AGENT, [name]: value })).toThrow(new RegExp(name));
  });
});
