import { compressFrameSync } from 'lz4-napi';
import { shapeErrorOf } from '../../../test/support/vendor-fixtures';
import { withFillKeys } from './fill-identity';
import { parseBuilderFillsCsv, parseBuilderFillsFile } from './hyperliquid-builder-fills.schema';

const BUILDER = '0x1924b8561eef20e70ede628a296175d358be80e5';
const ALICE = '0x53bbf2c0b745fd5cada06ddb4a3fb5e955f6efb3';
const BOB = '0x7fda4a5d1a4c09e72a2df5a5dc5c7a6e2b0c3e11';
const FILE = { builder: BUILDER, label: 'builder_fills/0x1924b8561eef20e70ede628a296175d358be80e5/20260918.csv' };

/** The header the stats host writes today: the documented twelve columns plus special_trade_type and is_trigger. */
const HEADER = 'time,user,coin,side,px,sz,crossed,special_trade_type,tif,is_trigger,counterparty,closed_pnl,twap_id,builder_fee';
const TAKER = `2026-09-18T00:03:40Z,${ALICE.toUpperCase().replace('0X', '0x')},ZEC,Ask,1469.6,0.11,true,Na,Ioc,false,${BOB},0,0,0.080828`;
const SELF_MATCHED = `2026-09-18T00:05:12Z,${BOB},HYPE,Bid,35.276,5.78,false,Na,Alo,false,${BOB},-1.25,,0.020392`;
const NO_FEE = `2026-09-18T00:07:01Z,${ALICE},xyz:TSLA,Bid,433.12,0.5,true,Na,FrontendMarket,true,,12.5,0,0`;

const csv = (...lines: string[]) => `${lines.join('\n')}\n`;
const parse = (...lines: string[]) => parseBuilderFillsCsv(csv(...lines), FILE);

describe(parseBuilderFillsFile.name, () => {
  it('reads an LZ4 frame of the CSV into typed fills', () => {
    const sut = parseBuilderFillsFile(compressFrameSync(csv(HEADER, TAKER, SELF_MATCHED, NO_FEE)), FILE);
    expect(sut).toEqual([
      {
        builder: BUILDER,
        fillKey: `1789689820|${ALICE}|A|1469.6|0.11|0|ZEC`,
        time: Date.parse('2026-09-18T00:03:40Z'),
        user: ALICE,
        coin: 'ZEC',
        side: 'A',
        px: '1469.6',
        sz: '0.11',
        crossed: true,
        tif: 'Ioc',
        counterparty: BOB,
        closedPnl: '0',
        twapId: null,
        builderFee: '0.080828',
        specialTradeType: 'Na',
        isTrigger: false,
      },
      expect.objectContaining({ user: BOB, counterparty: BOB, side: 'B', crossed: false, closedPnl: '-1.25', twapId: null, builderFee: '0.020392' }),
      expect.objectContaining({ coin: 'xyz:TSLA', counterparty: null, builderFee: '0', twapId: null, tif: 'FrontendMarket', isTrigger: true }),
    ]);
  });

  it('refuses a body that is not LZ4, naming the file', () => {
    const error = shapeErrorOf(() => parseBuilderFillsFile(Buffer.from(csv(HEADER, TAKER)), FILE));
    expect(error.message).toBe(`hyperliquid: ${FILE.label}: not an LZ4 frame (wrong magic number)`);
  });

  it('refuses a frame that does not hold UTF-8 text', () => {
    const error = shapeErrorOf(() => parseBuilderFillsFile(compressFrameSync(Buffer.from([0x74, 0xff, 0xfe, 0x0a])), FILE));
    expect(error.message).toContain(`${FILE.label}: not UTF-8 text`);
  });
});

describe(parseBuilderFillsCsv.name, () => {
  it('finds columns by name: reordered, with unknown extras, in the documented twelve-column form', () => {
    const header = 'builder_fee,twap_id,closed_pnl,counterparty,tif,crossed,sz,px,side,coin,user,time,venue';
    const row = `0.080828,,0,${BOB},Ioc,true,0.11,1469.6,Ask,ZEC,${ALICE},2026-09-18T00:03:40Z,hl`;
    const [sut] = parse(header, row);
    expect(sut).toMatchObject({ user: ALICE, coin: 'ZEC', side: 'A', px: '1469.6', builderFee: '0.080828', twapId: null });
    expect(sut.specialTradeType).toBeNull();
    expect(sut.isTrigger).toBeNull();
  });

  it('reads quoted fields, CRLF line ends and B/A sides', () => {
    const [sut] = parseBuilderFillsCsv(`${HEADER}\r\n"2026-09-18T00:03:40Z","${ALICE}","xyz:TSLA",B,"433.12",0.5,TRUE,Na,Ioc,false,${BOB},0,0,0.01\r\n`, FILE);
    expect(sut).toMatchObject({ coin: 'xyz:TSLA', side: 'B', crossed: true, px: '433.12' });
  });

  it('reads epoch-millisecond and fractional times, and a TWAP id', () => {
    const [ms, fraction] = parse(
      HEADER,
      `1789689820123,${ALICE},ZEC,Ask,1469.6,0.11,true,Na,Ioc,false,${BOB},0,3156,0.08`,
      `2026-09-18T02:03:40.123456+02:00,${ALICE},ZEC,Ask,1469.6,0.11,true,Na,Ioc,false,${BOB},0,0,0.08`,
    );
    expect(ms).toMatchObject({ time: 1789689820123, twapId: 3156 });
    expect(fraction.time).toBe(1789689820123);
  });

  it('keeps decimals as sent and rewrites an exponent form exactly', () => {
    const [sut] = parse(HEADER, `2026-09-18T00:03:40Z,${ALICE},kPEPE,Bid,0.0000120,335303,true,Na,Alo,false,${BOB},0,0,4.0236e-5`);
    expect(sut).toMatchObject({ px: '0.0000120', sz: '335303', builderFee: '0.000040236' });
  });

  it('answers no fills for a file with only its header, and skips blank lines', () => {
    expect(parse(HEADER)).toEqual([]);
    expect(parseBuilderFillsCsv(`${HEADER}\n\n${TAKER}\n\n`, FILE)).toHaveLength(1);
  });

  describe('identity keys', () => {
    it('tells apart fills of one order against two makers at the same price, size and second by their rank', () => {
      const carol = '0x0000000000000000000000000000000000c4a201';
      const [first, second] = parse(HEADER, TAKER, TAKER.replace(BOB, carol));
      expect(first.fillKey).not.toBe(second.fillKey);
      expect(second.fillKey).toBe(`1789689820|${ALICE}|A|1469.6|0.11|1|ZEC`);
    });

    it("gives the user's own fills (userFills, milliseconds, no counterparty) the keys of the file rows they are", () => {
      const fromFile = parse(HEADER, TAKER, TAKER).map((f) => f.fillKey);
      const time = Date.parse('2026-09-18T00:03:40.457Z');
      const fromUser = withFillKeys([0, 1].map((i) => ({ time: time + i, user: ALICE, coin: 'ZEC', side: 'A' as const, px: '1469.60', sz: '0.11' })));
      expect(fromUser.map((f) => f.fillKey)).toEqual(fromFile);
    });

    it('ranks identical rows, so every key in a file is unique and the set does not depend on row order', () => {
      const sut = parse(HEADER, TAKER, SELF_MATCHED, TAKER, TAKER);
      const keys = sut.map((f) => f.fillKey);
      expect(new Set(keys).size).toBe(4);
      expect(keys.filter((k) => k.endsWith('|ZEC'))).toEqual([0, 1, 2].map((n) => `1789689820|${ALICE}|A|1469.6|0.11|${n}|ZEC`));
      expect(new Set(parse(HEADER, TAKER, TAKER, SELF_MATCHED, TAKER).map((f) => f.fillKey))).toEqual(new Set(keys));
    });

    it('gives both sides of a self-matched trade their own key', () => {
      const buy = SELF_MATCHED;
      const sell = SELF_MATCHED.replace(',Bid,', ',Ask,');
      const [b, a] = parse(HEADER, buy, sell);
      expect(b.fillKey).not.toBe(a.fillKey);
    });

    it('is the same when a restated file changes the fee, pnl or number formatting', () => {
      const [original] = parse(HEADER, TAKER);
      const [restated] = parse(HEADER, TAKER.replace('1469.6,0.11', '1469.60,0.110').replace(',0,0,0.080828', ',1.5,0,0.08'));
      expect(restated.fillKey).toBe(original.fillKey);
    });
  });

  describe('refusals name the row, its line and the column', () => {
    it.each([
      ['time', TAKER.replace('2026-09-18T00:03:40Z', '2026-02-30T00:03:40Z'), 'expected ISO-8601 time or epoch milliseconds, got other text'],
      ['time', TAKER.replace('2026-09-18T00:03:40Z', '2026-09-18T00:03:40'), 'expected ISO-8601 time or epoch milliseconds, got other text'],
      ['time', TAKER.replace('2026-09-18T00:03:40Z', '1789689820'), 'expected ISO-8601 time or epoch milliseconds, got other text'],
      ['user', TAKER.replace(ALICE.toUpperCase().replace('0X', '0x'), ''), 'expected 0x address, got an empty field'],
      ['side', TAKER.replace(',Ask,', ',Sell,'), 'expected Bid or Ask, got other text'],
      ['px', TAKER.replace('1469.6', '1,469.6'), null],
      ['sz', TAKER.replace('0.11', '.11'), 'expected decimal, got other text'],
      ['crossed', TAKER.replace(',true,', ',yes,'), 'expected true or false, got other text'],
      ['counterparty', TAKER.replace(BOB, '0x1234'), 'expected 0x address or nothing, got other text'],
      ['twap_id', TAKER.replace(',0,0,0.080828', ',0,-1,0.080828'), 'expected TWAP id, got other text'],
      ['builder_fee', TAKER.replace('0.080828', ''), 'expected decimal, got an empty field'],
    ])('%s', (column, row, problem) => {
      const error = shapeErrorOf(() => parse(HEADER, SELF_MATCHED, row));
      if (problem === null) expect(error.message).toContain(`${FILE.label} row 2 (line 3): expected 14 fields, got 15`);
      else expect(error.message).toContain(`${FILE.label} row 2 (line 3), column ${column}: ${problem}`);
    });

    it('names missing and repeated columns in the header', () => {
      expect(shapeErrorOf(() => parse(HEADER.replace(',tif,', ',').replace(',twap_id', ''), TAKER)).message).toContain(
        `${FILE.label} header: missing columns "tif", "twap_id"`,
      );
      expect(shapeErrorOf(() => parse(`${HEADER},user`, TAKER)).message).toContain(`${FILE.label} header: column "user" appears twice`);
    });

    it('refuses an empty file and text that is not CSV', () => {
      expect(shapeErrorOf(() => parseBuilderFillsCsv('', FILE)).message).toContain(`${FILE.label}: no header line`);
      expect(shapeErrorOf(() => parse(HEADER, `${TAKER}"`)).message).toContain(`${FILE.label}: not CSV: line 2: quote inside an unquoted field`);
    });

    it('keeps values out of the message', () => {
      const error = shapeErrorOf(() => parse(HEADER, TAKER.replace('0.080828', 'secret-ish')));
      expect(error.message).not.toContain('secret-ish');
    });
  });
});
