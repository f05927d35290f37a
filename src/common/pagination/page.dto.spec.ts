import { toPage, toPageFromProbe } from './page.dto';

describe('toPage', () => {
  const sut = toPage;

  it('reports more rows when the known total lies beyond this page', () => {
    expect(sut({ items: [1, 2], page: 1, limit: 2, total: 5 })).toEqual({ items: [1, 2], page: 1, limit: 2, total: 5, hasMore: true });
  });

  it('reports no more rows on the last full page', () => {
    expect(sut({ items: [5, 6], page: 3, limit: 2, total: 6 }).hasMore).toBe(false);
  });

  it('reports no more rows on a short last page', () => {
    expect(sut({ items: [5], page: 3, limit: 2, total: 5 }).hasMore).toBe(false);
  });

  it('reports no more rows past the end', () => {
    expect(sut({ items: [], page: 9, limit: 2, total: 5 })).toEqual({ items: [], page: 9, limit: 2, total: 5, hasMore: false });
  });
});

describe('toPageFromProbe', () => {
  const sut = toPageFromProbe;

  it('drops the probe row and reports more rows when the source returned limit + 1', () => {
    expect(sut({ rows: ['a', 'b', 'c'], page: 2, limit: 2 })).toEqual({ items: ['a', 'b'], page: 2, limit: 2, total: null, hasMore: true });
  });

  it('reports no more rows when the source returned limit rows or fewer', () => {
    expect(sut({ rows: ['a', 'b'], page: 1, limit: 2 })).toEqual({ items: ['a', 'b'], page: 1, limit: 2, total: null, hasMore: false });
    expect(sut({ rows: [], page: 1, limit: 2 })).toEqual({ items: [], page: 1, limit: 2, total: null, hasMore: false });
  });

  it('leaves the caller rows untouched', () => {
    const rows = [1, 2, 3];
    sut({ rows, page: 1, limit: 2 });
    expect(rows).toEqual([1, 2, 3]);
  });
});
