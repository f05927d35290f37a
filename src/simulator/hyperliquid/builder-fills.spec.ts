import { decompressFrameSync } from 'lz4-napi';
import { parseBuilderFillsFile } from '../../providers/hyperliquid/hyperliquid-builder-fills.schema';
import { BuilderFill } from '../../providers/hyperliquid/hyperliquid.types';
import { RunningSimulator, startSimulator } from '../simulator.server';
import { SIMULATED_SERVICE_BUILDER, simulatedOpcBuilders } from '../world/builders';
import { BUILDER_FILLS_HEADER, fileDayStart } from './builder-fills';

const DAY_MS = 86_400_000;
const SEED = 11;
const WALLETS = 200;
/** 2026-01-15 12:00 UTC: the 14th is the last finished day. */
const T0 = Date.UTC(2026, 0, 15, 12);
const YESTERDAY = '20260114';
const ADDRESS = /^0x[0-9a-f]{40}$/;

/** What a file row and the user's wire fill have in common (the files give whole seconds). */
interface FillKey {
  time: number;
  coin: string;
  side: string;
  px: string;
  sz: string;
  builderFee?: string | null;
}

const keyOf = (fill: FillKey) => [Math.floor(fill.time / 1000), fill.coin, fill.side, fill.px, fill.sz, fill.builderFee].join(' ');

/** The service's own parser reads what the simulator writes: the file is checked by the client that ingests it. */
const parseFile = (builder: string, body: Buffer): BuilderFill[] => parseBuilderFillsFile(body, { builder, label: `builder_fills/${builder}` });
describe('builder fills files', () => {
  let now = T0;
  let sim: RunningSimulator;
  const builders = () => [SIMULATED_SERVICE_BUILDER, ...simulatedOpcBuilders(SEED)];
  const get = (builder: string, day: string, target = sim) => fetch(`${target.statsUrl}/builder_fills/${builder}/${day}.csv.lz4`);
  const rowsOf = async (builder: string, day: string): Promise<BuilderFill[]> => {
    const res = await get(builder, day);
    expect(res.status).toBe(200);
    return parseFile(builder, Buffer.from(await res.arrayBuffer()));
  };

  beforeAll(async () => {
    sim = await startSimulator({ wallets: WALLETS, seed: SEED, weightPerMinute: 0, clock: () => now });
  });
  afterAll(async () => {
    await sim.close();
  });
  beforeEach(() => {
    now = T0;
  });

  it('serves a finished day as one LZ4 frame of the CSV, oldest fill first, every field in its format', async () => {
    const res = await get(SIMULATED_SERVICE_BUILDER, YESTERDAY);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    const body = Buffer.from(await res.arrayBuffer());
    expect(decompressFrameSync(body).toString().split('\n')[0]).toBe(BUILDER_FILLS_HEADER);
    const rows = parseFile(SIMULATED_SERVICE_BUILDER, body);
    expect(rows.length).toBeGreaterThan(100);
    const dayStart = fileDayStart(YESTERDAY)!;
    const times = rows.map((row) => row.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    for (const row of rows) {
      expect(row.time >= dayStart && row.time < dayStart + DAY_MS).toBe(true);
      expect(row.time % 1000).toBe(0);
      expect(row.user).toMatch(ADDRESS);
      expect(row.counterparty).toMatch(ADDRESS);
      expect(row.crossed ? ['Ioc', 'Gtc'] : ['Alo', 'Gtc']).toContain(row.tif);
      expect([row.twapId, row.specialTradeType, row.isTrigger]).toEqual([null, 'Na', false]);
      for (const decimal of [row.px, row.sz, row.closedPnl, row.builderFee]) expect(decimal).toMatch(/^-?\d+(\.\d+)?$/);
      expect(Number(row.builderFee)).toBeGreaterThan(0);
    }
  });

  it("lists exactly the fills that paid a builder that day, as their users' userFillsByTime report them", async () => {
    const dayStart = fileDayStart(YESTERDAY)!;
    const fromFiles = new Map<string, string[]>();
    for (const builder of builders()) {
      for (const row of await rowsOf(builder, YESTERDAY)) fromFiles.set(row.user, [...(fromFiles.get(row.user) ?? []), keyOf(row)]);
    }
    const market = sim.protocols.hyperliquid.market;
    let compared = 0;
    for (const user of sim.world.addresses) {
      const fills = market.userFillsByTime(user, dayStart, dayStart + DAY_MS - 1, now) as FillKey[];
      const paid = fills.filter((fill) => fill.builderFee !== undefined).map(keyOf);
      expect({ user, rows: (fromFiles.get(user) ?? []).sort() }).toEqual({ user, rows: paid.sort() });
      compared += paid.length;
    }
    expect(compared).toBeGreaterThan(100);

    // And over the wire: the first row is in its user's userFills, newest first.
    const [first] = await rowsOf(SIMULATED_SERVICE_BUILDER, YESTERDAY);
    const res = await fetch(sim.infoUrl, { method: 'POST', body: JSON.stringify({ type: 'userFills', user: first.user }) });
    const wire = (await res.json()) as FillKey[];
    expect(wire.filter((fill) => fill.builderFee !== undefined).map(keyOf)).toContain(keyOf(first));
  });

  it('answers 403 where the stats host has no file: a day not over yet, an unknown builder, a bad name', async () => {
    now = Date.UTC(2026, 0, 15, 23, 59, 59, 999);
    expect((await get(SIMULATED_SERVICE_BUILDER, '20260115')).status).toBe(403);
    expect((await get(SIMULATED_SERVICE_BUILDER, '20260116')).status).toBe(403);
    now = Date.UTC(2026, 0, 16);
    expect((await get(SIMULATED_SERVICE_BUILDER, '20260115')).status).toBe(200);
    const denied = await get('0x0000000000000000000000000000000000000001', YESTERDAY);
    expect([denied.status, denied.headers.get('content-type')]).toEqual([403, 'application/xml']);
    expect(await denied.text()).toContain('<Code>AccessDenied</Code>');
    expect((await get(SIMULATED_SERVICE_BUILDER.toUpperCase().replace('0X', '0x'), YESTERDAY)).status).toBe(403);
    for (const day of ['20260231', '2026011', 'yesterday']) expect((await get(SIMULATED_SERVICE_BUILDER, day)).status).toBe(403);
    expect((await fetch(`${sim.statsUrl}/builder_fills/${SIMULATED_SERVICE_BUILDER}/${YESTERDAY}.csv`)).status).toBe(403);
    expect((await fetch(`${sim.statsUrl}/nothing`)).status).toBe(404);
  });

  it('has a few self-matched fills (counterparty = user) and otherwise trades against other traders', async () => {
    const rows: BuilderFill[] = [];
    for (const day of ['20260110', '20260111', '20260112', '20260113', YESTERDAY]) rows.push(...(await rowsOf(SIMULATED_SERVICE_BUILDER, day)));
    const selfMatched = rows.filter((row) => row.counterparty === row.user).length;
    expect(selfMatched).toBeGreaterThan(0);
    expect(selfMatched / rows.length).toBeLessThan(0.05);
    const traders = new Set(sim.world.addresses.slice(0, sim.world.walletCount));
    for (const row of rows) expect(traders.has(row.counterparty ?? '')).toBe(true);
  });

  it('builds the same file in two simulators with the same seed', async () => {
    const twin = await startSimulator({ wallets: WALLETS, seed: SEED, clock: () => now });
    const other = await startSimulator({ wallets: WALLETS, seed: SEED + 1, clock: () => now });
    try {
      for (const builder of builders()) {
        const [mine, theirs] = await Promise.all([get(builder, YESTERDAY), get(builder, YESTERDAY, twin)]);
        expect(Buffer.from(await theirs.arrayBuffer())).toEqual(Buffer.from(await mine.arrayBuffer()));
      }
      expect((await get(builders()[1], YESTERDAY, other)).status).toBe(403);
      expect(sim.protocols.hyperliquid.counters.requestsByType.builder_fills).toBeGreaterThan(0);
    } finally {
      await twin.close();
      await other.close();
    }
  });
});
