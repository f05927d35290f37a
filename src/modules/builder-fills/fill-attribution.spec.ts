import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFills } from '../../providers/hyperliquid/hyperliquid-user.schema';
import { builderOfUserFill, marketOf, quoteTokens, volumeUsd } from './fill-attribution';

const FIXTURE = join(__dirname, '../../../../shared/fixtures/hyperliquid/userFills.builderFee.ccxt-stringified.json');
const SERVICE = { address: '0x' + '5'.repeat(40), feeRatesTenthsBps: [10, 9, 8] };
const OPC = { address: '0x' + '0'.repeat(39) + 'c', feeRatesTenthsBps: [25] };

describe(builderOfUserFill.name, () => {
  const fills = parseFills(JSON.parse(readFileSync(FIXTURE, 'utf8')));

  it('attributes the recorded fills that paid a builder 1 bp to the builder charging f=10, and no others', () => {
    expect(fills.map((fill) => builderOfUserFill(fill, [SERVICE, OPC]))).toEqual([SERVICE.address, undefined, undefined, undefined, SERVICE.address]);
  });

  it('names no builder for a rate none charges, or one two builders share', () => {
    const fill = { px: '100', sz: '1', builderFee: '0.025' };
    expect(builderOfUserFill(fill, [SERVICE, OPC])).toBe(OPC.address);
    expect(builderOfUserFill(fill, [SERVICE])).toBeUndefined();
    expect(builderOfUserFill(fill, [OPC, { ...SERVICE, feeRatesTenthsBps: [25] }])).toBeUndefined();
    expect(builderOfUserFill({ px: '100', sz: '1', builderFee: null }, [SERVICE, OPC])).toBeUndefined();
  });
});

describe('markets and volume', () => {
  it('tells spot pairs from perps, HIP-3 ones included', () => {
    expect(['BTC', 'xyz:TSLA', '@107', 'PURR/USDC', 'flx:CRCL'].map(marketOf)).toEqual(['perp', 'perp', 'spot', 'spot', 'perp']);
  });

  it('multiplies exactly, converts the quote, and has no volume without a quote price', () => {
    expect(volumeUsd('33.209', '0.73', '1')).toBe('24.24257');
    expect(volumeUsd('0.1', '3', '2.5')).toBe('0.75');
    expect(volumeUsd('1', '1', undefined)).toBeNull();
  });

  it('finds the quote token of each spot pair', () => {
    const meta = {
      tokens: [
        { name: 'USDC', index: 0 },
        { name: 'PURR', index: 1 },
        { name: 'HYPE', index: 150 },
      ],
      universe: [
        { name: 'PURR/USDC', index: 0, tokens: [1, 0] },
        { name: '@200', index: 200, tokens: [1, 150] },
      ],
    } as never;
    expect(quoteTokens(meta)).toEqual(
      new Map([
        ['PURR/USDC', 'USDC'],
        ['@200', 'HYPE'],
      ]),
    );
  });
});
