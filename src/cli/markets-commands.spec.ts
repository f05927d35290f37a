import { INestApplicationContext } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { AddedAsset, AssetCatalogueService } from '../modules/markets/asset-catalogue.service';
import type { CommandArgs } from './commands';
import { MARKETS_COMMANDS } from './markets-commands';
import { EXIT_FAILED, runCli } from './cli-runner';
import { UpstreamError } from '../providers/kit/upstream.error';

const args = (values: Partial<CommandArgs>) => values as CommandArgs;

const ALIBABA: AddedAsset = {
  id: 412,
  type: 'STOCK',
  symbol: '9988',
  name: 'Alibaba Group Holding Limited',
  market: 'HK',
  stockCode: '9988-HK',
  currency: 'HKD',
  sector: null,
  industry: null,
  categories: [],
  yahooSymbol: '9988.HK',
};

/** An application context whose only provider is a fake catalogue service. */
function appWith(addAsset: jest.Mock): INestApplicationContext {
  return {
    get: (token: unknown) => {
      if (token !== AssetCatalogueService) throw new Error(`unexpected provider ${String(token)}`);
      return { addAsset };
    },
  } as unknown as INestApplicationContext;
}

describe('asset:add', () => {
  const sut = MARKETS_COMMANDS['asset:add'];

  it('adds the positional symbol and says how to quote it now', async () => {
    const addAsset = jest.fn(async () => ALIBABA);

    const output = await sut.run(appWith(addAsset), args({ positional: '9988.HK' }));

    expect(addAsset).toHaveBeenCalledWith({ yahooSymbol: '9988.HK', sector: undefined, industry: undefined });
    expect(output.json).toEqual({ asset: ALIBABA });
    expect(output.text).toEqual(['added 9988 (STOCK, HK, 9988-HK, HKD) as asset 412, quoted now; markets.tradfi keeps its quote fresh']);
  });

  it('leaves out the market and stock code an FX pair does not have', async () => {
    const swissFranc: AddedAsset = { ...ALIBABA, id: 7, type: 'FOREX', symbol: 'USDCHF', market: null, stockCode: null, currency: 'CHF', yahooSymbol: 'CHF=X' };

    const output = await sut.run(appWith(jest.fn(async () => swissFranc)), args({ positional: 'CHF=X' }));

    expect(output.text[0]).toMatch(/^added USDCHF \(FOREX, CHF\) as asset 7, quoted now;/);
  });

  it('passes the sector and industry trimmed', async () => {
    const addAsset = jest.fn(async () => ALIBABA);

    await sut.run(appWith(addAsset), args({ positional: '9988.HK', sector: ' Consumer Cyclical ', industry: 'Internet Retail' }));

    expect(addAsset).toHaveBeenCalledWith({ yahooSymbol: '9988.HK', sector: 'Consumer Cyclical', industry: 'Internet Retail' });
  });

  it.each([
    ['sector', { sector: '  ' }],
    ['industry', { industry: '' }],
  ])('refuses a blank %s, naming it, and asks the vendor nothing', async (option, labels) => {
    const addAsset = jest.fn();
    const run = sut.run(appWith(addAsset), args({ positional: '9988.HK', ...labels }));
    await expect(run).rejects.toThrow(AppError);
    await expect(run).rejects.toThrow(new RegExp(`^${option}: must not be blank$`));
    expect(addAsset).not.toHaveBeenCalled();
  });
});

describe('asset:add when the vendor cannot answer', () => {
  it('exits 1 as SERVICE_UNAVAILABLE with the upstream message, not as an internal error', async () => {
    const out: string[] = [];
    const failing = jest.fn(async () => {
      throw new UpstreamError({ provider: 'yahoo', kind: 'network', message: 'cookie page: network error' });
    });
    const io = { stdout: (text: string) => out.push(text), stderr: (text: string) => out.push(text) };

    const code = await runCli(['asset:add', 'HOOD', '--json'], { io, withApp: (work) => work(appWith(failing)) });

    expect(code).toBe(EXIT_FAILED);
    expect(JSON.parse(out[out.length - 1])).toEqual({ ok: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'yahoo: cookie page: network error' } });
    expect(out.join('\n')).not.toContain('DEBUG=1');
  });
});
