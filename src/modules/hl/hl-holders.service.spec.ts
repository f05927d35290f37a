import { ConfigService } from '@nestjs/config';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { RankPager } from '../../common/pagination/rank-pager';
import { AppConfig } from '../../config/app.config';
import { PerpHoldersQueryDto } from './dto/holders.query.dto';
import { HlCatalog, HlCatalogService } from './hl-catalog.service';
import { HlHoldersRepository, PerpHolderRow } from './hl-holders.repository';
import { HlHoldersService } from './hl-holders.service';

const ROW: PerpHolderRow = {
  address: '0x' + 'a'.repeat(40),
  side: 'long',
  coin: 'BTC',
  size: '1',
  value: '100000',
  entry_price: '90000',
  leverage: '2',
  upnl: '10000',
  roe: '0.2',
  margin_used: '50000',
  liquidation_price: null,
  mark_price: '100000',
  cum_funding: null,
  supply_pct: '0.5',
  tags: [],
};

/** A catalog whose current market snapshot moves on from 5 to 6 when it is invalidated (a publish and prune in between). */
function catalogService() {
  let current = 5;
  const build = (id: number) =>
    HlCatalog.build([{ market: 'perp', coin: 'BTC', dex: '', markPx: '100000', midPx: null, outcomeId: null, outcomeSide: null, outcomeName: null }], {
      market: { id, kind: 'market', snapshotTime: new Date(0), rows: 1, feedsReadAt: {} },
      leaderboard: null,
    });
  return {
    get: async () => build(current),
    snapshotCoin: async () => ({ holders: 1 }),
    invalidate: () => {
      current = 6;
    },
  } as unknown as HlCatalogService;
}

const config = (holderPagesCached: number) => new ConfigService<AppConfig, true>({ hl: { holderPagesCached } });

describe(HlHoldersService.name, () => {
  const query = Object.assign(new PerpHoldersQueryDto(), { coin: 'BTC', sortBy: 'value', order: 'desc', page: 1, limit: 100 });

  it('reads the page again on the current snapshot when the cached one was pruned in between', async () => {
    const read: number[] = [];
    const holders = {
      perpHolders: async ({ snapshotId }: { snapshotId: number }) => {
        read.push(snapshotId);
        if (snapshotId === 5) throw Object.assign(new Error('relation "hl_perp_holders_s5" does not exist'), { code: '42P01' });
        return [ROW];
      },
    } as unknown as HlHoldersRepository;
    const sut = new HlHoldersService(catalogService(), holders, new RankPager(new CursorCodec('x'.repeat(32))), config(1000));

    const page = await sut.getPerpHolders(query);

    expect(read).toEqual([5, 6]);
    const { items } = JSON.parse(page.json) as { items: Array<{ address: string }> };
    expect(items.map((h) => h.address)).toEqual([ROW.address]);
  });

  it('lets any other database error through, without a second read', async () => {
    const perpHolders = jest.fn(async () => Promise.reject(Object.assign(new Error('boom'), { code: '57014' })));
    const catalog = catalogService();
    const invalidate = jest.spyOn(catalog, 'invalidate');
    const sut = new HlHoldersService(catalog, { perpHolders } as unknown as HlHoldersRepository, new RankPager(new CursorCodec('x'.repeat(32))), config(1000));

    await expect(sut.getPerpHolders(query)).rejects.toThrow('boom');

    expect(perpHolders).toHaveBeenCalledTimes(1);
    expect(invalidate).not.toHaveBeenCalled();
  });

  it.each([
    [1000, 1],
    [0, 2],
  ])('with %i pages cached, reads the same page of one snapshot from the database %i time(s)', async (cached, reads) => {
    const perpHolders = jest.fn(async () => [ROW]);
    const holders = { perpHolders } as unknown as HlHoldersRepository;
    const sut = new HlHoldersService(catalogService(), holders, new RankPager(new CursorCodec('x'.repeat(32))), config(cached));

    const first = await sut.getPerpHolders(query);
    const second = await sut.getPerpHolders(query);

    expect(perpHolders).toHaveBeenCalledTimes(reads);
    expect(second).toEqual(first);
  });

  it('reads pages of more than 100 rows from the database every time', async () => {
    const perpHolders = jest.fn(async () => [ROW]);
    const sut = new HlHoldersService(
      catalogService(),
      { perpHolders } as unknown as HlHoldersRepository,
      new RankPager(new CursorCodec('x'.repeat(32))),
      config(1000),
    );
    const large = Object.assign(new PerpHoldersQueryDto(), { ...query, limit: 500 });

    await sut.getPerpHolders(large);
    await sut.getPerpHolders(large);

    expect(perpHolders).toHaveBeenCalledTimes(2);
  });

  it('keeps a cached page to its own sort, order and start, next cursor and page number included', async () => {
    const perpHolders = jest.fn(async ({ window }: { window: { bound: number }; rankColumn: string }) => (window.bound === 0 ? [] : [ROW]));
    const sut = new HlHoldersService(
      catalogService(),
      { perpHolders } as unknown as HlHoldersRepository,
      new RankPager(new CursorCodec('x'.repeat(32))),
      config(1000),
    );
    const pageOf = async (change: Partial<PerpHoldersQueryDto>) =>
      JSON.parse((await sut.getPerpHolders(Object.assign(new PerpHoldersQueryDto(), { ...query, limit: 1, ...change }))).json) as {
        page: number;
        items: unknown[];
      };

    // One holder in all: ascending pages 3 and 4 both lie past the end (the same empty window).
    const [third, fourth] = [await pageOf({ order: 'asc', page: 3 }), await pageOf({ order: 'asc', page: 4 })];
    await pageOf({ sortBy: 'value' });
    await pageOf({ sortBy: 'pnl' });

    expect([third.page, fourth.page]).toEqual([3, 4]);
    expect(perpHolders.mock.calls.map(([{ rankColumn }]) => rankColumn)).toEqual(['rank_value', 'rank_value', 'rank_value', 'rank_pnl']);
  });
});
