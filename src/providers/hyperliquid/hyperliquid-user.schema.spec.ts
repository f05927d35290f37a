import { hlFixture } from '../../../test/support/hl-fixtures';
import { shapeErrorOf } from '../../../test/support/vendor-fixtures';
import {
  parseClearinghouseState,
  parseFills,
  parseLeaderboard,
  parseRecentTrades,
  parseSpotClearinghouseState,
  parseVaultAddresses,
} from './hyperliquid-user.schema';

const fixture = hlFixture;

describe(parseClearinghouseState.name, () => {
  it('reads a current account with an isolated position', () => {
    const sut = parseClearinghouseState(fixture('clearinghouseState.json'));
    expect(sut.time).toBe(1754467216357);
    expect(sut.withdrawable).toBe('75.781884');
    expect(sut.crossMaintenanceMarginUsed).toBe('0.0');
    expect(sut.marginSummary).toEqual({ accountValue: '83.307638', totalNtlPos: '75.652', totalRawUsd: '7.655638', totalMarginUsed: '7.525754' });
    expect(sut.assetPositions).toEqual([
      {
        coin: 'HYPE',
        szi: '2.0',
        entryPx: '37.829',
        positionValue: '75.652',
        unrealizedPnl: '-0.006',
        returnOnEquity: '-0.0007930424',
        liquidationPx: '35.8559189474',
        marginUsed: '7.525754',
        leverage: { type: 'isolated', value: 10, rawUsd: '-68.126246' },
        maxLeverage: 10,
        cumFunding: { allTime: '4.966798', sinceOpen: '0.0', sinceChange: '0.0' },
      },
    ]);
  });

  it('reads an empty account', () => {
    const sut = parseClearinghouseState(fixture('clearinghouseState.empty.json'));
    expect(sut.assetPositions).toEqual([]);
    expect(sut.marginSummary.accountValue).toBe('0.0');
    expect(sut.time).toBe(1765661071083);
  });

  it('tolerates the 2023 schema: no cumFunding, maxLeverage, crossMaintenanceMarginUsed or time', () => {
    const sut = parseClearinghouseState(fixture('clearinghouseState.legacy-2023.json'));
    expect(sut.assetPositions).toHaveLength(12);
    expect(sut.assetPositions.every((p) => p.cumFunding === null && p.maxLeverage === null)).toBe(true);
    expect(sut.time).toBeNull();
    expect(sut.crossMaintenanceMarginUsed).toBeNull();
    expect(sut.assetPositions[0]).toMatchObject({
      coin: 'BTC',
      szi: '-0.00785',
      liquidationPx: '173198.69592357',
      leverage: { type: 'cross', value: 20, rawUsd: null },
    });
    expect(sut.assetPositions[1]).toMatchObject({ coin: 'ETH', szi: '0.1334', liquidationPx: null });
    expect(sut.withdrawable).toBe('1010.57173');
  });

  it('accepts integers sent as numeric strings (the ccxt HIP-3 recording)', () => {
    const sut = parseClearinghouseState(fixture('clearinghouseState.dex-flx.ccxt-stringified.json'));
    expect(sut.time).toBe(1764350959056);
    expect(sut.assetPositions[0]).toMatchObject({
      coin: 'flx:CRCL',
      szi: '0.13',
      leverage: { type: 'isolated', value: 3, rawUsd: '-6.955118' },
      maxLeverage: 3,
    });
  });

  it('names a dropped size by its path', () => {
    const json = fixture('clearinghouseState.legacy-2023.json');
    delete json.assetPositions[3].position.szi;
    expect(shapeErrorOf(() => parseClearinghouseState(json)).message).toContain(
      'clearinghouseState.assetPositions[3].position.szi: expected decimal string, got nothing',
    );
  });

  it('names a money field sent as a number', () => {
    const json = fixture('clearinghouseState.json');
    json.marginSummary.accountValue = 83.307638;
    const error = shapeErrorOf(() => parseClearinghouseState(json));
    expect(error.message).toContain('clearinghouseState.marginSummary.accountValue: expected decimal string, got number');
    expect(error.message).not.toContain('83.3');
  });

  it('refuses an unknown leverage type', () => {
    const json = fixture('clearinghouseState.json');
    json.assetPositions[0].position.leverage.type = 'portfolio';
    expect(shapeErrorOf(() => parseClearinghouseState(json)).message).toContain(
      'clearinghouseState.assetPositions[0].position.leverage.type: expected "cross" or "isolated"',
    );
  });

  it('refuses a body that is not an object', () => {
    expect(shapeErrorOf(() => parseClearinghouseState(null)).message).toContain('clearinghouseState: expected object, got null');
  });
});

describe(parseSpotClearinghouseState.name, () => {
  it('reads mainnet balances', () => {
    const sut = parseSpotClearinghouseState(fixture('spotClearinghouseState.json'));
    expect(sut.balances).toEqual([
      { coin: 'USDC', token: 0, total: '2.77363', hold: '0.0', entryNtl: '0.0' },
      { coin: 'HYPE', token: 150, total: '0.00959057', hold: '0.0', entryNtl: '0.214388' },
    ]);
  });

  it('reads testnet balances with a hold', () => {
    const sut = parseSpotClearinghouseState(fixture('spotClearinghouseState.testnet.json'));
    expect(sut.balances).toHaveLength(3);
    expect(sut.balances[1]).toEqual({ coin: 'HYPE', token: 1105, total: '0.24965', hold: '0.2', entryNtl: '24.982487' });
  });

  it('accepts an outcome side token without a token index', () => {
    const json = fixture('spotClearinghouseState.json');
    json.balances.push({ coin: '+1', total: '12.0', hold: '0.0' });
    expect(parseSpotClearinghouseState(json).balances[2]).toEqual({ coin: '+1', token: null, total: '12.0', hold: '0.0', entryNtl: null });
  });

  it('names a total sent as a number', () => {
    const json = fixture('spotClearinghouseState.json');
    json.balances[1].total = 0.5;
    expect(shapeErrorOf(() => parseSpotClearinghouseState(json)).message).toContain(
      'spotClearinghouseState.balances[1].total: expected decimal string, got number',
    );
  });
});

describe(parseFills.name, () => {
  it('reads the 2023 fills without tid, feeToken, builderFee, liquidation or twapId', () => {
    const sut = parseFills(fixture('userFills.json'), 'userFills');
    expect(sut).toHaveLength(500);
    expect(sut[0]).toEqual({
      coin: 'SUI',
      px: '1.3189',
      sz: '142.7',
      side: 'A',
      time: 1683245884863,
      startPosition: '4623.5',
      dir: 'Close Long',
      closedPnl: '-0.25686',
      hash: '0x3d4770d0527317ef77c404017559cb0103000b34010cc95e97b437cbc3b6087a',
      oid: 189324432,
      crossed: true,
      fee: '0.0',
      feeToken: null,
      tid: null,
      builderFee: null,
      liquidation: null,
      twapId: null,
    });
    expect(sut[499]).toMatchObject({ side: 'B', startPosition: '-1839.2', oid: 189315555 });
  });

  it('reads the newer fields when present', () => {
    const json = fixture('userFills.json').slice(0, 1);
    Object.assign(json[0], { tid: 1081368440085115, feeToken: 'USDC', builderFee: '0.046691', twapId: null });
    expect(parseFills(json)[0]).toMatchObject({ tid: 1081368440085115, feeToken: 'USDC', builderFee: '0.046691' });
  });

  describe('the 2026 fills with builder fees (ccxt recording, ints stringified)', () => {
    const builderFills = () => fixture('userFills.builderFee.ccxt-stringified.json');

    it('reads builderFee where a builder was paid and null where the field is absent', () => {
      const sut = parseFills(builderFills(), 'userFills');
      expect(sut.map((f) => f.builderFee)).toEqual(['0.002424', null, null, null, '0.002558']);
    });

    it('leaves fee as recorded: it already includes the builder fee', () => {
      const sut = parseFills(builderFills(), 'userFills');
      expect(sut.map((f) => f.fee)).toEqual(['0.012896', '0.001173', '0.000282', '0.047504', '0.01361']);
    });

    it('accepts time, oid and tid sent as numeric strings', () => {
      const [first] = parseFills(builderFills(), 'userFills');
      expect(first).toEqual({
        coin: 'HYPE',
        px: '33.209',
        sz: '0.73',
        side: 'B',
        time: 1770458548926,
        startPosition: '0.0',
        dir: 'Open Long',
        closedPnl: '0.0',
        hash: '0x53542a9ac057af8454cd0434d851d202028b00805b5ace56f71cd5ed7f5b896e',
        oid: 314848230306,
        crossed: true,
        fee: '0.012896',
        feeToken: 'USDC',
        tid: 882779857052503,
        builderFee: '0.002424',
        liquidation: null,
        twapId: null,
      });
    });

    it('reads the liquidation of a liquidation fill and the HIP-3 fee token', () => {
      const sut = parseFills(builderFills(), 'userFills');
      expect(sut[1]).toMatchObject({
        coin: 'flx:CRCL',
        feeToken: 'USDH',
        tid: 1019408913364172,
        liquidation: { liquidatedUser: '0x193bd350ec838b1e22d6f302da5343b920aa1c2b', markPx: '55.92', method: 'market' },
      });
      expect(sut.map((f) => f.liquidation !== null)).toEqual([false, true, false, true, false]);
    });

    it('reads a TWAP slice id sent as an integer', () => {
      const json = builderFills();
      json[2].twapId = 3156;
      expect(parseFills(json)[2].twapId).toBe(3156);
    });

    it('names a builder fee sent as a number', () => {
      const json = builderFills();
      json[4].builderFee = 0.002558;
      expect(shapeErrorOf(() => parseFills(json, 'userFills')).message).toContain('userFills[4].builderFee: expected decimal string, got number');
    });
  });

  it('names a fill with an unknown side', () => {
    const json = fixture('userFills.json');
    json[7].side = 'S';
    expect(shapeErrorOf(() => parseFills(json)).message).toContain('userFillsByTime[7].side: expected "B" or "A", got string');
  });
});

describe(parseRecentTrades.name, () => {
  it('reads the trades channel element with its [buyer, seller] pair', () => {
    const sut = parseRecentTrades(fixture('wsTrades.json').data);
    expect(sut).toEqual([
      {
        coin: 'HYPE',
        side: 'B',
        px: '35.276',
        sz: '5.78',
        time: 1764835613064,
        hash: '0x0000000000000000000000000000000000000000000000000000000000000000',
        tid: 716095722814130,
        users: ['0x8cdba352268065be9d5444e1f82b8fe83717bbd5', '0x13558be785661958932ceac35ba20de187275a42'],
      },
    ]);
  });

  it('lower-cases the addresses', () => {
    const data = fixture('wsTrades.json').data;
    data[0].users[0] = '0x8CDBA352268065BE9D5444E1F82B8FE83717BBD5';
    expect(parseRecentTrades(data)[0].users[0]).toBe('0x8cdba352268065be9d5444e1f82b8fe83717bbd5');
  });

  it('names a trade without its users pair', () => {
    const data = fixture('wsTrades.json').data;
    data[0].users = ['0x8cdba352268065be9d5444e1f82b8fe83717bbd5'];
    expect(shapeErrorOf(() => parseRecentTrades(data)).message).toContain('recentTrades[0].users: expected 2 elements, got 1');
  });
});

describe(parseLeaderboard.name, () => {
  it('reads a row with its four windows keyed by name', () => {
    const json = fixture('leaderboard.excerpt.json');
    json.leaderboardRows[0].ethAddress = json.leaderboardRows[0].ethAddress.toUpperCase().replace('0X', '0x');
    const [row] = parseLeaderboard(json);
    expect(row.ethAddress).toBe('0x162cc7c861ebd0c06b3d72319201150482518185');
    expect(row.accountValue).toBe('48857952.3308470026');
    expect(row.displayName).toBe('ABC');
    expect(Object.keys(row.windowPerformances)).toEqual(['day', 'week', 'month', 'allTime']);
    expect(row.windowPerformances.day).toEqual({ pnl: '644054.375913', roi: '0.0133582723', vlm: '3250555746.66' });
    expect(row.windowPerformances.allTime.vlm).toBe('608739069893.13');
  });

  it('reads a null display name and ignores unknown windows', () => {
    const json = fixture('leaderboard.excerpt.json');
    json.leaderboardRows[0].displayName = null;
    json.leaderboardRows[0].windowPerformances.push(['perpDay', { pnl: '1.0', roi: '0.0', vlm: '2.0' }]);
    const [row] = parseLeaderboard(json);
    expect(row.displayName).toBeNull();
    expect(Object.keys(row.windowPerformances)).toEqual(['day', 'week', 'month', 'allTime']);
  });

  it('names a missing window', () => {
    const json = fixture('leaderboard.excerpt.json');
    json.leaderboardRows[0].windowPerformances.splice(1, 1);
    expect(shapeErrorOf(() => parseLeaderboard(json)).message).toContain('leaderboard.leaderboardRows[0].windowPerformances: missing window "week"');
  });

  it('names a pnl sent as a number', () => {
    const json = fixture('leaderboard.excerpt.json');
    json.leaderboardRows[0].windowPerformances[2][1].pnl = 876456.77;
    expect(shapeErrorOf(() => parseLeaderboard(json)).message).toContain(
      'leaderboard.leaderboardRows[0].windowPerformances[2][1].pnl: expected decimal string, got number',
    );
  });
});

describe(parseVaultAddresses.name, () => {
  // The stats host's shape as documented by cryptoOS (API_VAULTS.md); no recorded body is stored.
  const vault = (address: string) => ({
    apr: 0.0,
    pnls: [['day', ['0.0']]],
    summary: {
      name: 'Snipe Trading',
      vaultAddress: address,
      leader: '0x9ab020fd91d6909e3d0cbf6c078f8b8163836c06',
      tvl: '0.000016',
      isClosed: true,
      relationship: { type: 'normal' },
      createTimeMillis: 1736422051357,
    },
  });

  it('takes summary.vaultAddress (or a flat vaultAddress), lower-cased and de-duplicated', () => {
    const sut = parseVaultAddresses([
      vault('0x00043d4a2c258892172dc6ce5f62e2e3936ae0dc'),
      vault('0xDFC24B077BC1425AD1DEA75BCB6F8158E10DF303'),
      { vaultAddress: '0xdfc24b077bc1425ad1dea75bcb6f8158e10df303' },
    ]);
    expect(sut).toEqual(['0x00043d4a2c258892172dc6ce5f62e2e3936ae0dc', '0xdfc24b077bc1425ad1dea75bcb6f8158e10df303']);
  });

  it('names an element without an address', () => {
    const bad = vault('0x00043d4a2c258892172dc6ce5f62e2e3936ae0dc') as { summary: Record<string, unknown> };
    delete bad.summary.vaultAddress;
    expect(shapeErrorOf(() => parseVaultAddresses([bad])).message).toContain('vaults[0].summary.vaultAddress: expected 0x address, got nothing');
  });
});
