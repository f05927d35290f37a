import { HL_FIXTURES, hlFixture } from '../../../test/support/hl-fixtures';
import { shapeErrorOf } from '../../../test/support/vendor-fixtures';
import {
  parseAllMids,
  parseMeta,
  parseMetaAndAssetCtxs,
  parseOutcomeMeta,
  parsePerpDexs,
  parseSpotMeta,
  parseSpotMetaAndAssetCtxs,
} from './hyperliquid.schema';
import { outcomeCoin, outcomeTokenCoin, parseOutcomeCoin } from './outcome-coin';

const fixture = hlFixture;

describe('Hyperliquid market-data parsers on recorded responses', () => {
  it('reads the fixtures from the shared folder', () => {
    expect(HL_FIXTURES.endsWith('/shared/fixtures/hyperliquid')).toBe(true);
  });

  describe(parseAllMids.name, () => {
    it('keeps every coin with its mid as sent', () => {
      const sut = parseAllMids(fixture('allMids.json'));
      expect(Object.keys(sut)).toHaveLength(482);
      expect(sut.BTC).toBe('89926.5');
      expect(sut['@1']).toBe('21.522');
      expect(sut['PURR/USDC']).toBe(fixture('allMids.json')['PURR/USDC']);
    });

    it('names the coin whose mid is a number', () => {
      const mids = { ...fixture('allMids.json'), ETH: 3000.5 };
      expect(shapeErrorOf(() => parseAllMids(mids)).message).toContain('allMids.ETH: expected decimal string, got number');
    });

    it('refuses an exponent', () => {
      expect(shapeErrorOf(() => parseAllMids({ X: '1e-7' })).message).toContain('allMids.X: expected decimal string');
    });
  });

  describe(parseMeta.name, () => {
    it('reads the native universe with defaults for absent flags', () => {
      const sut = parseMeta(fixture('meta.json'));
      expect(sut.universe).toHaveLength(223);
      expect(sut.collateralToken).toBe(0);
      expect(sut.universe[0]).toEqual({
        name: 'BTC',
        szDecimals: 5,
        maxLeverage: 40,
        onlyIsolated: false,
        isDelisted: false,
        marginTableId: 56,
        marginMode: null,
      });
      expect(sut.universe.find((a) => a.name === 'MATIC')?.isDelisted).toBe(true);
      expect(sut.universe.filter((a) => a.isDelisted)).toHaveLength(37);
    });

    it('names a missing field by its path', () => {
      const meta = fixture('meta.json');
      delete meta.universe[2].szDecimals;
      expect(shapeErrorOf(() => parseMeta(meta)).message).toContain('meta.universe[2].szDecimals: expected integer, got nothing');
    });
  });

  describe(parseMetaAndAssetCtxs.name, () => {
    it('zips the native universe with its contexts by position', () => {
      const { meta, ctxs } = parseMetaAndAssetCtxs(fixture('metaAndAssetCtxs.json'));
      expect(meta.universe).toHaveLength(228);
      expect(ctxs).toHaveLength(228);
      expect(ctxs[0]).toMatchObject({
        coin: 'BTC',
        markPx: '66344.0',
        midPx: '66371.5',
        oraclePx: '66383.0',
        funding: '-0.000003688',
        impactPxs: ['66371.0', '66372.0'],
      });
      expect(ctxs[3]).toMatchObject({ coin: 'MATIC', midPx: null, premium: null, impactPxs: null });
      ctxs.forEach((ctx, i) => expect(ctx.coin).toBe(meta.universe[i].name));
    });

    it('reads a HIP-3 dex with dex-prefixed names', () => {
      const { meta, ctxs } = parseMetaAndAssetCtxs(fixture('metaAndAssetCtxs.dex-xyz.json'));
      expect(meta.universe).toHaveLength(43);
      expect(meta.universe[0]).toMatchObject({ name: 'xyz:XYZ100', onlyIsolated: true, marginMode: 'noCross' });
      expect(ctxs[1]).toMatchObject({ coin: 'xyz:TSLA', markPx: '399.52', openInterest: '39552.404', dayBaseVlm: '59597.895' });
    });

    it('refuses contexts that do not line up with the universe', () => {
      const json = fixture('metaAndAssetCtxs.json');
      json[1].pop();
      expect(shapeErrorOf(() => parseMetaAndAssetCtxs(json)).message).toContain('metaAndAssetCtxs[1]: expected 228 asset contexts');
    });

    it('names a context field sent as a number', () => {
      const json = fixture('metaAndAssetCtxs.json');
      json[1][5].markPx = 1.5;
      expect(shapeErrorOf(() => parseMetaAndAssetCtxs(json)).message).toContain('metaAndAssetCtxs[1][5].markPx: expected decimal string, got number');
    });
  });

  describe(parseSpotMeta.name, () => {
    it('reads tokens and pairs', () => {
      const sut = parseSpotMeta(fixture('spotMeta.json'));
      expect(sut.tokens).toHaveLength(342);
      expect(sut.universe).toHaveLength(199);
      expect(sut.tokens[150]).toEqual({
        name: 'HYPE',
        index: 150,
        szDecimals: 2,
        weiDecimals: 8,
        tokenId: '0x0d01dc56dcaaca66ad901c959b4011ec',
        isCanonical: false,
        fullName: 'Hyperliquid',
      });
      expect(sut.universe[0]).toEqual({ name: 'PURR/USDC', index: 0, tokens: [1, 0], isCanonical: true });
    });

    it('refuses a pair without both token indexes', () => {
      const json = fixture('spotMeta.json');
      json.universe[4].tokens = [7];
      expect(shapeErrorOf(() => parseSpotMeta(json)).message).toContain('spotMeta.universe[4].tokens: expected 2 elements, got 1');
    });
  });

  describe(parseSpotMetaAndAssetCtxs.name, () => {
    it('zips contexts to pairs by coin name, not by position', () => {
      const json = fixture('spotMetaAndAssetCtxs.json');
      const { meta, ctxs } = parseSpotMetaAndAssetCtxs(json);
      expect(meta.tokens).toHaveLength(398);
      expect(meta.universe).toHaveLength(233);
      expect(json[1]).toHaveLength(249);
      expect(ctxs).toHaveLength(233);
      ctxs.forEach((ctx, i) => expect(ctx.coin).toBe(meta.universe[i].name));
      // universe[71] is @72 while the wire's 72nd ctx is @71: a positional zip would be wrong here
      expect(json[1][71].coin).toBe('@71');
      expect(ctxs[71]).toEqual({
        coin: '@72',
        markPx: '1.5721',
        midPx: '1.56975',
        prevDayPx: '1.6147',
        dayNtlVlm: '3995.141129',
        dayBaseVlm: '2516.13',
        circulatingSupply: '512039.71608477',
        totalSupply: '998815.28608477',
      });
      const hype = meta.universe.find((p) => p.tokens[0] === 150 && p.tokens[1] === 0);
      expect(hype?.name).toBe('@107');
      expect(ctxs.find((c) => c.coin === '@107')?.markPx).toBe('41.328');
    });

    it('checks contexts of pairs the universe omits too', () => {
      const json = fixture('spotMetaAndAssetCtxs.json');
      const i = json[1].findIndex((c: { coin: string }) => c.coin === '@71');
      json[1][i].totalSupply = null;
      expect(shapeErrorOf(() => parseSpotMetaAndAssetCtxs(json)).message).toContain(
        `spotMetaAndAssetCtxs[1][${i}].totalSupply: expected decimal string, got null`,
      );
    });
  });

  describe(parsePerpDexs.name, () => {
    it('lists the builder dexes without the native null', () => {
      const sut = parsePerpDexs(fixture('perpDexs.json'));
      expect(sut.map((d) => d.name)).toEqual(['xyz', 'flx', 'vntl', 'hyna']);
      expect(sut[1]).toEqual({ name: 'flx', fullName: 'Felix Exchange', deployer: '0x2fab552502a6d45920d5741a2f3ebf4c35536352' });
    });

    it('names a dex without a name', () => {
      const json = fixture('perpDexs.json');
      delete json[2].name;
      expect(shapeErrorOf(() => parsePerpDexs(json)).message).toContain('perpDexs[2].name: expected string');
    });
  });

  describe(parseOutcomeMeta.name, () => {
    it('reads the launch-day outcome without quoteToken', () => {
      const sut = parseOutcomeMeta(fixture('outcomeMeta.json'));
      expect(sut.outcomes).toEqual([
        {
          outcome: 0,
          name: 'Recurring',
          description: 'class:priceBinary|underlying:BTC|expiry:20260503-0600|targetPrice:78213|period:1d',
          sides: ['Yes', 'No'],
          quoteToken: null,
        },
      ]);
    });

    it('keeps a newer quoteToken as a string', () => {
      const json = fixture('outcomeMeta.json');
      json.outcomes[0].quoteToken = 360;
      expect(parseOutcomeMeta(json).outcomes[0].quoteToken).toBe('360');
    });

    it('names a side spec without a name', () => {
      const json = fixture('outcomeMeta.json');
      json.outcomes[0].sideSpecs[1] = {};
      expect(shapeErrorOf(() => parseOutcomeMeta(json)).message).toContain('outcomeMeta.outcomes[0].sideSpecs[1].name: expected string');
    });
  });
});

describe('HIP-4 outcome coins', () => {
  it('encodes side s of outcome o as #(10o+s) for trades and +(10o+s) for balances', () => {
    expect(outcomeCoin(0, 0)).toBe('#0');
    expect(outcomeCoin(0, 1)).toBe('#1');
    expect(outcomeCoin(7002, 0)).toBe('#70020');
    expect(outcomeTokenCoin(2, 1)).toBe('+21');
  });

  it('decodes both forms and nothing else', () => {
    expect(parseOutcomeCoin('#70020')).toEqual({ outcome: 7002, side: 0 });
    expect(parseOutcomeCoin('+21')).toEqual({ outcome: 2, side: 1 });
    expect(parseOutcomeCoin('#1')).toEqual({ outcome: 0, side: 1 });
    for (const coin of ['BTC', '@107', 'xyz:TSLA', '#', '#01', '#-1', '#1.5']) expect(parseOutcomeCoin(coin)).toBeNull();
  });

  it('refuses a side outside 0..9', () => {
    expect(() => outcomeCoin(1, 10)).toThrow(RangeError);
  });
});
