import { parseFeed } from '@rowanmanning/feed-parser';
import { FeedChannel, FeedEntry, renderAtom, renderRss, rfc3339, rfc822 } from './feed-xml';

const AT = Date.UTC(2025, 5, 2, 14, 5, 9);

function channel(overrides: Partial<FeedChannel> = {}): FeedChannel & { id: string } {
  return {
    id: 'tag:test',
    title: 'Test & <Feed>',
    link: 'https://feed.example',
    description: 'd',
    language: 'en',
    ttlMinutes: 5,
    offsetMinutes: 0,
    bodyForm: 'text',
    imageVia: null,
    ...overrides,
  };
}

function entry(overrides: Partial<FeedEntry> = {}): FeedEntry {
  return {
    guid: 'g-1',
    guidIsPermaLink: false,
    title: 'Johnson & Johnson beats; odds <25% of a cut',
    link: 'https://feed.example/a?utm_source=x&utm_medium=y',
    body: "Bitcoin's rally & the <b>bears</b>",
    publishedAt: AT,
    author: 'Tomás Ferreira',
    categories: ['Markets'],
    image: 'https://img.example/1.jpg',
    ...overrides,
  };
}

describe(rfc822.name, () => {
  it('writes the instant at the given offset, as The Block writes -0500', () => {
    expect(rfc822(AT, -300)).toBe('Mon, 02 Jun 2025 09:05:09 -0500');
    expect(rfc822(AT, 480)).toBe('Mon, 02 Jun 2025 22:05:09 +0800');
    expect(rfc822(AT, 0)).toBe('Mon, 02 Jun 2025 14:05:09 +0000');
    expect(rfc822(AT, 'GMT')).toBe('Mon, 02 Jun 2025 14:05:09 GMT');
  });

  it('rolls the local date back across midnight', () => {
    expect(rfc822(Date.UTC(2025, 5, 2, 3, 0, 0), -300)).toBe('Sun, 01 Jun 2025 22:00:00 -0500');
  });

  it('always names the same instant', () => {
    for (const offset of [-300, 0, 480]) expect(Date.parse(rfc822(AT, offset))).toBe(AT);
  });
});

describe(rfc3339.name, () => {
  it('writes Atom dates with the offset, or Z at UTC', () => {
    expect(rfc3339(AT, -300)).toBe('2025-06-02T09:05:09-05:00');
    expect(rfc3339(AT, 0)).toBe('2025-06-02T14:05:09Z');
    expect(Date.parse(rfc3339(AT, -300))).toBe(AT);
  });
});

describe(renderRss.name, () => {
  it('escapes titles and links so a feed parser reads them back exactly', () => {
    const sut = parseFeed(renderRss(channel(), [entry()]));
    expect(sut.title).toBe('Test & <Feed>');
    expect(sut.items[0].title).toBe('Johnson & Johnson beats; odds <25% of a cut');
    expect(sut.items[0].url).toBe('https://feed.example/a?utm_source=x&utm_medium=y');
    expect(sut.items[0].published?.getTime()).toBe(AT);
    expect(sut.items[0].authors[0].name).toBe('Tomás Ferreira');
  });

  it('double-encodes a double-encoded body: the XML text still holds entities, which the parser decodes again', () => {
    const xml = renderRss(channel({ bodyForm: 'double-encoded' }), [entry()]);
    expect(xml).toContain('Bitcoin&amp;#039;s rally &amp;amp; the &amp;lt;b&amp;gt;bears');
    expect(parseFeed(xml).items[0].description).toBe("Bitcoin's rally & the <b>bears</b>");
  });

  it('carries an HTML body as HTML, even one holding the CDATA terminator', () => {
    const xml = renderRss(channel({ bodyForm: 'html' }), [entry({ body: '<p><img src="x.jpg"></p><p>a ]]> b</p>' })]);
    expect(parseFeed(xml).items[0].description).toBe('<p><img src="x.jpg"></p><p>a ]]> b</p>');
  });

  it('writes the ttl, an empty category as an empty element, and the image the way the channel says', () => {
    const media = renderRss(channel({ imageVia: 'media' }), [entry({ categories: ['Markets', ''] })]);
    expect(media).toContain('<ttl>5</ttl>');
    expect(media).toContain('<category></category>');
    expect(parseFeed(media).items[0].mediaImages.map((image) => image.url)).toEqual(['https://img.example/1.jpg']);
    const enclosure = renderRss(channel({ imageVia: 'enclosure', ttlMinutes: null }), [entry()]);
    expect(enclosure).not.toContain('<ttl>');
    expect(enclosure).toContain('<enclosure url="https://img.example/1.jpg" length="0" type="image/jpeg"/>');
  });

  it('writes an empty channel when there are no items', () => {
    const sut = parseFeed(renderRss(channel(), []));
    expect(sut.items).toEqual([]);
    expect(sut.title).toBe('Test & <Feed>');
  });
});

describe(renderAtom.name, () => {
  it('writes entries a feed parser reads as Atom, with ids, offset dates, authors and categories', () => {
    const xml = renderAtom(channel({ offsetMinutes: -300 }), [
      entry({ guid: 'tag:wire.example,2025:1', body: '<p>Apple&#039;s results</p>', categories: ['Earnings'] }),
    ]);
    const sut = parseFeed(xml);
    expect(sut.meta.type).toBe('atom');
    expect(xml).toContain('<published>2025-06-02T09:05:09-05:00</published>');
    expect(sut.updated?.getTime()).toBe(AT);
    const [item] = sut.items;
    expect({ id: item.id, title: item.title, url: item.url, published: item.published?.getTime(), updated: item.updated?.getTime() }).toEqual({
      id: 'tag:wire.example,2025:1',
      title: 'Johnson & Johnson beats; odds <25% of a cut',
      url: 'https://feed.example/a?utm_source=x&utm_medium=y',
      published: AT,
      updated: AT,
    });
    expect(xml).toContain('<summary type="html">&lt;p&gt;Apple&amp;#039;s results&lt;/p&gt;</summary>');
    expect(item.description).toBe("<p>Apple's results</p>");
    expect(item.authors.map((author) => author.name)).toEqual(['Tomás Ferreira']);
    expect(item.categories.map((category) => category.term)).toEqual(['Earnings']);
  });
});
