import { CursorCodec } from './cursor-codec';
import { PageQueryDto } from './page-query.dto';
import { RankPager, rankWindow } from './rank-pager';

const binding = { endpoint: 'hl.perp.holders', coin: 'BTC', sortBy: 'value', order: 'desc', limit: 100 };

function query(fields: Partial<PageQueryDto & { cursor: string }>) {
  return { page: 1, limit: 100, ...fields };
}

describe(rankWindow.name, () => {
  it('reads the next ranks after the position in desc order', () => {
    expect(rankWindow({ start: 200, limit: 100, order: 'desc', total: 1234 })).toEqual({ op: '>', bound: 200, direction: 'ASC', limit: 100 });
  });

  it('counts asc positions from the bottom rank', () => {
    expect(rankWindow({ start: 0, limit: 100, order: 'asc', total: 1234 })).toEqual({ op: '<=', bound: 1234, direction: 'DESC', limit: 100 });
    expect(rankWindow({ start: 1200, limit: 100, order: 'asc', total: 1234 })).toEqual({ op: '<=', bound: 34, direction: 'DESC', limit: 100 });
  });

  it('never points below rank 0 when a cursor outlives a shrinking snapshot', () => {
    expect(rankWindow({ start: 1500, limit: 100, order: 'asc', total: 1234 }).bound).toBe(0);
  });
});

describe(RankPager.name, () => {
  const codec = new CursorCodec('a-test-secret-of-enough-length');
  const sut = new RankPager(codec);

  it('starts at the offset of the page without a cursor', () => {
    expect(sut.start(query({ page: 3 }), binding)).toBe(200);
  });

  it('refuses pages at or beyond the 10,000-row cap', () => {
    expect(() => sut.start(query({ page: 101 }), binding)).toThrow(/^page: offset paging is capped/);
  });

  it('takes the rank from the cursor and ignores the page, without a cap', () => {
    const cursor = codec.encode(binding, { rank: 25_000, key: [] });
    expect(sut.start(query({ page: 7, cursor }), binding)).toBe(25_000);
  });

  it('rejects a cursor minted for another limit', () => {
    const cursor = codec.encode({ ...binding, limit: 50 }, { rank: 50, key: [] });
    expect(() => sut.start(query({ cursor }), binding)).toThrow(/^cursor: /);
  });

  it('mints a cursor at the rows returned so far while more remain', () => {
    const page = sut.page({ items: new Array(100).fill('row'), start: 200, limit: 100, total: 1234, binding });
    expect(page).toEqual(expect.objectContaining({ page: 3, total: 1234, hasMore: true }));
    expect(codec.decode(page.nextCursor!, binding).rank).toBe(300);
  });

  it('ends the walk on the last rows and on a short page', () => {
    expect(sut.page({ items: new Array(34).fill('row'), start: 1200, limit: 100, total: 1234, binding })).toEqual(
      expect.objectContaining({ hasMore: false, nextCursor: null }),
    );
    expect(sut.page({ items: [], start: 300, limit: 100, total: 1234, binding })).toEqual(expect.objectContaining({ hasMore: false, nextCursor: null }));
  });
});
