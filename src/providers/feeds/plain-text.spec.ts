import { capAtWord, decodeEntities, plainText } from './plain-text';

describe(plainText.name, () => {
  it("turns Cointelegraph's image paragraph and summary paragraph into the summary text alone", () => {
    const html =
      '<p style="float:right; margin:0 0 10px 15px; width:240px;"><img src="https://images.cointelegraph.com/x.jpg" alt="US markets > ‘poised to move on-chain’"></p>' +
      '<p>In comments Thursday, SEC Chair Paul Atkins doubled down.</p>';
    expect(plainText(html, 1_000)).toBe('In comments Thursday, SEC Chair Paul Atkins doubled down.');
  });

  it('separates block elements by a space, joins inline ones, and drops scripts, styles and comments with their content', () => {
    const html = '<p>First.</p><p>Second <b>bold</b>ly.<br/>Third</p><script>steal()</script><style>p{}</style><!-- note -->';
    expect(plainText(html, 1_000)).toBe('First. Second boldly. Third');
  });

  it('keeps prose that only looks like markup', () => {
    expect(plainText('Fees < 1% and BTC > $90,000', 1_000)).toBe('Fees < 1% and BTC > $90,000');
  });

  it("decodes entities escaped twice, such as Decrypt's &amp;#039;, and collapses whitespace", () => {
    expect(plainText('What&amp;#039;s new \n\n   in&nbsp;crypto &amp;amp; the web', 1_000)).toBe("What's new in crypto & the web");
  });

  it('answers empty text for null and for markup without text', () => {
    expect(plainText(null, 100)).toBe('');
    expect(plainText('<p><img src="x.jpg"></p>', 100)).toBe('');
  });
});

describe(decodeEntities.name, () => {
  it('reads decimal, hexadecimal and named references and leaves unknown or invalid ones as written', () => {
    expect(decodeEntities('&#39;&#x2019;&rsquo;&hellip;&bogus;&#0;&#xD800;')).toBe("'’’…&bogus;&#0;&#xD800;");
  });
});

describe(capAtWord.name, () => {
  it('cuts before the word that would cross the cap and marks the cut', () => {
    const sut = capAtWord('alpha beta gamma delta', 14);
    expect(sut).toBe('alpha beta…');
    expect(sut.length).toBeLessThanOrEqual(14);
  });

  it('leaves text within the cap untouched', () => {
    expect(capAtWord('alpha beta', 10)).toBe('alpha beta');
  });

  it('cuts one overlong word where it stands', () => {
    expect(capAtWord('https://example.com/a-very-long-path', 12)).toBe('https://exa…');
  });
});
