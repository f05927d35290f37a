import { vendorFixtureText } from '../../../test/support/vendor-fixtures';
import { SourceNewsItem } from '../news-source-provider';
import { UpstreamError } from '../kit/upstream.error';
import { parseFeedDocument } from './feed-document.parser';
import { CATEGORIES_MAX, SUMMARY_MAX_CHARS } from './feed-items.mapping';

const RECORDED_FEEDS = [
  { name: 'coindesk', file: 'coindesk.rss.xml', count: 25 },
  { name: 'cointelegraph', file: 'cointelegraph.rss.xml', count: 30 },
  { name: 'decrypt', file: 'decrypt.rss.xml', count: 58 },
  { name: 'theblock', file: 'theblock.rss.xml', count: 19 },
];
const ENTITY = /&(?:#\d+|#x[0-9a-f]+|[a-z]+);/i;

function recorded(file: string) {
  return parseFeedDocument(vendorFixtureText('news', file), 'test');
}

function byGuid(items: SourceNewsItem[], guid: string): SourceNewsItem {
  const item = items.find((candidate) => candidate.guid === guid);
  if (!item) throw new Error(`no item ${guid}`);
  return item;
}

function rssWith(channel: string): string {
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>${channel}<item><title>A</title><link>https://example.com/a</link><pubDate>Fri, 12 Dec 2025 17:33:11 +0000</pubDate></item></channel></rss>`;
}

function shapeErrorOf(body: string): UpstreamError {
  try {
    parseFeedDocument(body, 'outlet');
  } catch (err) {
    if (err instanceof UpstreamError) return err;
    throw err;
  }
  throw new Error('expected the body to be refused');
}

describe(parseFeedDocument.name, () => {
  describe.each(RECORDED_FEEDS)('on the recorded $name feed', ({ file, count }) => {
    const { items } = recorded(file);

    it(`reads all ${count} items`, () => {
      expect(items).toHaveLength(count);
    });

    it('gives every item a title, a canonical link, a UTC date, text summaries and clean categories', () => {
      for (const item of items) {
        expect(item.title).not.toBe('');
        expect(item.url).toMatch(/^https:\/\/[^#]+$/);
        expect(item.url).not.toMatch(/[?&]utm_/);
        expect(item.publishedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(`${item.title} ${item.summary}`).not.toMatch(ENTITY);
        expect(item.summary).not.toMatch(/<[a-z/]/i);
        expect(item.summary.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
        expect(item.categories.length).toBeLessThanOrEqual(CATEGORIES_MAX);
        expect(item.categories.every((label) => label !== '' && label === label.trim())).toBe(true);
        expect(new Set(item.categories.map((label) => label.toLowerCase())).size).toBe(item.categories.length);
      }
    });
  });

  it("takes CoinDesk's image from media:content and reads its ttl of 5 minutes", () => {
    const { items, ttlMs } = recorded('coindesk.rss.xml');
    expect(ttlMs).toBe(300_000);
    expect(byGuid(items, '9aef2b42-3854-4f38-8336-c157cc2d05a1')).toMatchObject({
      imageUrl:
        'https://cdn.sanity.io/images/s3y3vcno/production/92e55eb28f7499e7a2830668981d5027aff1a10c-1920x1080.jpg?fm=jpg&w=1920&h=1080&crop=focalpoint&fit=clip',
      publisher: 'Jesse Hamilton',
      publishedAt: '2025-12-12T22:20:18.000Z',
      categories: ['Policy', 'SEC', 'Citadel Securities', 'DeFi Education Fund', 'News'],
    });
  });

  it("canonicalises Cointelegraph's utm_ links and turns its HTML description into the summary text", () => {
    const { items, ttlMs } = recorded('cointelegraph.rss.xml');
    expect(ttlMs).toBeNull();
    expect(byGuid(items, 'https://cointelegraph.com/news/figure-technology-solana-onchain-equity-second-ipo')).toEqual({
      guid: 'https://cointelegraph.com/news/figure-technology-solana-onchain-equity-second-ipo',
      title: 'Figure Technology files ‘second IPO’ to bring native equity issuance to Solana',
      summary:
        'Figure is planning a second IPO to issue blockchain-native equity on Solana, enabling onchain trading and DeFi use cases beyond traditional stock markets.',
      url: 'https://cointelegraph.com/news/figure-technology-solana-onchain-equity-second-ipo',
      imageUrl:
        'https://images.cointelegraph.com/images/528_aHR0cHM6Ly9zMy5jb2ludGVsZWdyYXBoLmNvbS91cGxvYWRzLzIwMjUtMTIvMDE5YjEzNmYtOWYyNy03ODYxLTliMTQtMmQzNDg3YmY0NWQ2LmpwZw==.jpg',
      publisher: 'Cointelegraph by Sam Bourgi',
      publishedAt: '2025-12-12T16:57:28.000Z',
      categories: [],
    });
  });

  it("decodes Decrypt's entities, drops its empty categories and caps its long video summaries", () => {
    const { items } = recorded('decrypt.rss.xml');
    expect(byGuid(items, 'https://decrypt.co/?p=352201')).toMatchObject({
      title: "Vanguard Exec Calls Bitcoin a 'Digital Labubu', Even as Firm Offers Crypto ETF Trading",
      publisher: 'Jason Nelson',
      categories: ['Coins'],
    });
    // Two empty <category></category> before "Coins".
    expect(items.find((item) => item.title.startsWith('XRP Is Launching on Ethereum and Solana'))?.categories).toEqual(['Coins']);
    const recap = items.find((item) => item.url.includes('/videos/interviews/kLKB13oZ/'));
    expect(recap?.summary).toMatch(/^Crypto majors are sharply higher, climbing 6–10% .* an 85% favorite to become the next Federal Reserve Chair…$/);
    expect(recap?.summary.length).toBeGreaterThan(SUMMARY_MAX_CHARS - 50);
    expect(recap?.publisher).toBeNull();
  });

  it("decodes entities escaped twice as in Decrypt's channel description, and three times", () => {
    const xml = rssWith('').replace(
      '<title>A</title>',
      '<title>Here&amp;amp;#039;s why</title><description>What&amp;#039;s new in crypto and the advent of the decentralized web.</description>',
    );
    expect(parseFeedDocument(xml, 't').items[0]).toMatchObject({
      title: "Here's why",
      summary: "What's new in crypto and the advent of the decentralized web.",
    });
  });

  it("resolves The Block's -0500 dates to the UTC instant and reads its ttl", () => {
    const { items, ttlMs } = recorded('theblock.rss.xml');
    expect(ttlMs).toBe(480_000);
    // <pubDate>Fri, 12 Dec 2025 17:33:11 -0500</pubDate>
    expect(byGuid(items, 'https://www.theblock.co/post/382435')).toMatchObject({
      publishedAt: '2025-12-12T22:33:11.000Z',
      url: 'https://www.theblock.co/post/382435/fogo-solana-svm-airdrop-token-sale-mainnet-launch',
      publisher: 'Daniel Kuhn',
    });
    expect(Math.max(...items.map((item) => item.categories.length))).toBe(CATEGORIES_MAX);
  });

  it('reads an Atom feed', () => {
    const atom = `<?xml version="1.0" encoding="utf-8"?>
      <feed xmlns="http://www.w3.org/2005/Atom">
        <title>Filings</title><id>urn:feed</id><updated>2025-12-13T09:00:00Z</updated>
        <entry>
          <id>urn:uuid:1225c695</id>
          <title type="html">8-K &amp;amp; press release</title>
          <link rel="alternate" href="https://example.com/filing/1?utm_source=atom#top"/>
          <published>2025-12-12T17:33:11-05:00</published>
          <updated>2025-12-12T18:00:00-05:00</updated>
          <summary type="html">&lt;p&gt;Current report, &lt;b&gt;items&lt;/b&gt; 2.02 and 9.01&lt;/p&gt;</summary>
          <author><name>ACME Corp</name></author>
          <category term="8-K" label="8-K"/>
          <category term="8-k"/>
        </entry>
        <entry>
          <id>urn:uuid:2</id><title>Updated only</title><link href="https://example.com/filing/2"/>
          <updated>2025-12-11T08:00:00Z</updated>
        </entry>
      </feed>`;
    const { items, ttlMs } = parseFeedDocument(atom, 'filings');
    expect(ttlMs).toBeNull();
    expect(items).toEqual([
      {
        guid: 'urn:uuid:1225c695',
        title: '8-K & press release',
        summary: 'Current report, items 2.02 and 9.01',
        url: 'https://example.com/filing/1',
        imageUrl: null,
        publisher: 'ACME Corp',
        publishedAt: '2025-12-12T22:33:11.000Z',
        categories: ['8-K'],
      },
      expect.objectContaining({ guid: 'urn:uuid:2', publishedAt: '2025-12-11T08:00:00.000Z', publisher: null }),
    ]);
  });

  it('leaves the summary empty rather than store the full article from content:encoded', () => {
    const xml = rssWith('')
      .replace('<rss version="2.0">', '<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">')
      .replace('<title>A</title>', '<title>A</title><content:encoded><![CDATA[<p>The whole article.</p>]]></content:encoded>');
    expect(parseFeedDocument(xml, 't').items[0].summary).toBe('');
  });

  it('ignores a ttl that is zero or not a number, and reads one longer than a day as a day', () => {
    expect(parseFeedDocument(rssWith('<ttl>0</ttl>'), 't').ttlMs).toBeNull();
    expect(parseFeedDocument(rssWith('<ttl>soon</ttl>'), 't').ttlMs).toBeNull();
    expect(parseFeedDocument(rssWith('<ttl> 99999 </ttl>'), 't').ttlMs).toBe(24 * 60 * 60_000);
    expect(parseFeedDocument(rssWith(''), 't').items).toHaveLength(1);
  });

  it('refuses an HTML page as kind shape, naming the feed and not quoting the page', () => {
    for (const page of ['<!DOCTYPE html><html><body>secret-page</body></html>', '\uFEFF<?xml version="1.0"?>\n<!-- x --><html lang="en">secret-page</html>']) {
      const error = shapeErrorOf(page);
      expect(error).toMatchObject({ kind: 'shape', provider: 'feeds', message: 'feeds: feed outlet: an HTML page, not a feed' });
      expect(error.message).not.toContain('secret-page');
    }
  });

  it('refuses a body that is not a feed as kind shape without quoting it', () => {
    for (const body of ['<?xml version="1.0"?><note>secret-note</note>', 'secret-note', '']) {
      const error = shapeErrorOf(body);
      expect(error).toMatchObject({ kind: 'shape', message: 'feeds: feed outlet: the body is not an RSS or Atom feed' });
    }
  });
});
