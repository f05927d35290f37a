import { canonicalUrl } from './canonical-url';

describe(canonicalUrl.name, () => {
  it('removes every tracking parameter and the fragment, keeping the other parameters in their order', () => {
    const link = 'https://example.com/a?utm_source=rss&b=2&fbclid=x&gclid=y&a=1&mc_cid=c&mc_eid=e&_hsenc=h&_hsmi=m&igshid=i&UTM_Medium=feed#comments';
    expect(canonicalUrl(link)).toBe('https://example.com/a?b=2&a=1');
  });

  it("keeps the other parameters' encoding as sent, since a re-encoded value may name another page", () => {
    expect(canonicalUrl('https://example.com/search?q=a%26b+c&utm_campaign=x&page=2')).toBe('https://example.com/search?q=a%26b+c&page=2');
  });

  it('lower-cases the scheme and the host but not the path', () => {
    expect(canonicalUrl('HTTPS://WWW.TheBlock.CO/Post/382435')).toBe('https://www.theblock.co/Post/382435');
  });

  it('drops an empty query left once tracking is removed', () => {
    expect(canonicalUrl('https://cointelegraph.com/news/x?utm_source=rss_feed&utm_medium=rss')).toBe('https://cointelegraph.com/news/x');
  });

  it('refuses a link that is not an absolute http(s) URL', () => {
    expect(canonicalUrl('javascript:alert(1)')).toBeNull();
    expect(canonicalUrl('/news/relative')).toBeNull();
    expect(canonicalUrl('ftp://example.com/file')).toBeNull();
  });
});
