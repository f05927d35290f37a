import { CATEGORIES_MAX, mapFeedItems, ParsedFeed, ParsedFeedItem, SUMMARY_MAX_CHARS } from './feed-items.mapping';

const FEED_BUILT_AT = '2025-12-13T00:53:19.000Z';

function makeItem(overrides: Partial<ParsedFeedItem> = {}): ParsedFeedItem {
  return {
    id: 'guid-1',
    title: 'Bitcoin tops $100,000',
    description: 'A short summary.',
    url: 'https://news.example.com/a?utm_source=rss',
    published: '2025-12-12T22:33:11.000Z',
    updated: null,
    image: null,
    media: [],
    authors: [{ name: 'Jane Doe', email: null, url: null }],
    categories: [],
    ...overrides,
  };
}

function feedOf(items: ParsedFeedItem[], updated: string | null = FEED_BUILT_AT): ParsedFeed {
  return { published: null, updated, items };
}

function media(overrides: Partial<ParsedFeedItem['media'][number]>): ParsedFeedItem['media'][number] {
  return { url: 'https://cdn.example.com/a.mp4', image: null, title: null, length: null, type: 'video', mimeType: 'video/mp4', ...overrides };
}

describe(mapFeedItems.name, () => {
  it('maps an item to its guid, plain title and summary, canonical link, author and UTC date', () => {
    const [sut] = mapFeedItems(feedOf([makeItem({ title: '  Bitcoin &amp;#039;tops&#39; $100k \n', description: '<p>Summary &amp; <b>more</b>.</p>' })]));
    expect(sut).toEqual({
      guid: 'guid-1',
      title: "Bitcoin 'tops' $100k",
      summary: 'Summary & more.',
      url: 'https://news.example.com/a',
      imageUrl: null,
      publisher: 'Jane Doe',
      publishedAt: '2025-12-12T22:33:11.000Z',
      categories: [],
    });
  });

  it('skips an item without a title or without an http(s) link', () => {
    const items = [
      makeItem({ id: 'a', title: ' <b></b> ' }),
      makeItem({ id: 'b', url: null }),
      makeItem({ id: 'c', url: 'mailto:x@example.com' }),
      makeItem({ id: 'd' }),
    ];
    expect(mapFeedItems(feedOf(items)).map((item) => item.guid)).toEqual(['d']);
  });

  it('uses the canonical link as the guid when the item has no id', () => {
    expect(mapFeedItems(feedOf([makeItem({ id: null })]))[0].guid).toBe('https://news.example.com/a');
  });

  it('keeps the first of two items with one guid, so a batch never holds a row twice', () => {
    const sut = mapFeedItems(feedOf([makeItem({ title: 'First' }), makeItem({ title: 'Repeat' })]));
    expect(sut.map((item) => item.title)).toEqual(['First']);
  });

  it("dates an undated item by its update, else by the feed's build, and skips it when the feed is undated too", () => {
    const updated = makeItem({ id: 'u', published: null, updated: '2025-12-12T10:00:00-05:00' });
    const undated = makeItem({ id: 'n', published: null, updated: 'not a date' });
    expect(mapFeedItems(feedOf([updated, undated])).map((item) => [item.guid, item.publishedAt])).toEqual([
      ['u', '2025-12-12T15:00:00.000Z'],
      ['n', FEED_BUILT_AT],
    ]);
    expect(mapFeedItems(feedOf([undated], null))).toEqual([]);
  });

  it('caps the summary at a word boundary', () => {
    const sut = mapFeedItems(feedOf([makeItem({ description: 'word '.repeat(400) })]))[0].summary;
    expect(sut.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(sut).toMatch(/ word…$/);
  });

  it('trims labels, drops empty ones, removes duplicates whatever their case and keeps at most the cap', () => {
    const labels = [' DeFi ', '', '   ', 'defi', 'Markets', ...Array.from({ length: 30 }, (_, i) => `Tag ${i}`)];
    const categories = labels.map((label) => ({ label, term: label, url: null }));
    const sut = mapFeedItems(feedOf([makeItem({ categories })]))[0].categories;
    expect(sut.slice(0, 3)).toEqual(['DeFi', 'Markets', 'Tag 0']);
    expect(sut).toHaveLength(CATEGORIES_MAX);
  });

  it('takes the image from the item, else its first image attachment, else a video poster, ignoring non-http URLs', () => {
    const image = (item: Partial<ParsedFeedItem>) => mapFeedItems(feedOf([makeItem(item)]))[0].imageUrl;
    const attachment = media({ url: 'https://cdn.example.com/b.jpg', type: null, mimeType: 'image/jpeg' });
    expect(image({ image: { url: 'https://cdn.example.com/a.png', title: null }, media: [attachment] })).toBe('https://cdn.example.com/a.png');
    expect(image({ media: [media({}), attachment] })).toBe('https://cdn.example.com/b.jpg');
    expect(image({ media: [media({ image: 'https://cdn.example.com/poster.jpg' })] })).toBe('https://cdn.example.com/poster.jpg');
    expect(image({ image: { url: 'data:image/png;base64,AAAA', title: null } })).toBeNull();
  });

  it('names the authors as written, never by address, and null when the item names none', () => {
    const publisher = (authors: ParsedFeedItem['authors']) => mapFeedItems(feedOf([makeItem({ authors })]))[0].publisher;
    expect(publisher([{ name: 'Cointelegraph by Sam Bourgi', email: null, url: null }])).toBe('Cointelegraph by Sam Bourgi');
    expect(
      publisher([
        { name: 'A. Writer', email: null, url: null },
        { name: 'B. Editor', email: null, url: null },
      ]),
    ).toBe('A. Writer, B. Editor');
    expect(publisher([{ name: null, email: 'desk@example.com', url: null }])).toBeNull();
    expect(publisher([])).toBeNull();
  });
});
