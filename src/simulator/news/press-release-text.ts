import { Listing } from '../world/market-book';
import { escapeHtml } from './feed-xml';
import { between, lastQuarter, longDate, money, ticker } from './news-format';
import { Story, storyUnit } from './story-stream';
import { Worded } from './story-text-en';

const DAY_MS = 86_400_000;
/** How press releases cite a listing: the exchange's short name and its local code (`HKEX: 0700`). */
const EXCHANGE_LABELS: Record<string, string> = { NMS: 'Nasdaq', NGM: 'Nasdaq', NYQ: 'NYSE', HKG: 'HKEX', JPX: 'TSE', KSC: 'KRX' };
const DATELINES: Record<string, string> = { HKG: 'HONG KONG', JPX: 'TOKYO', KSC: 'SEOUL' };

/** `(Nasdaq: AAPL)`, `(HKEX: 0700)`: the citation a release opens with. */
export function exchangeCitation(listing: Listing): string {
  return `(${EXCHANGE_LABELS[listing.exchange] ?? listing.exchange}: ${listing.symbol.replace(/\.[A-Z]+$/, '')})`;
}

/**
 * A press release about one of the world's companies as the wire carries it: a title in the wire's title case
 * and an HTML body opening with the dateline and the exchange citation. Results follow the shares: revenue grew
 * when the stock rose over the day before.
 */
export function pressRelease(story: Story): Worded {
  const listing = story.listing!;
  const company = listing.longName;
  const quarter = lastQuarter(story.at);
  const opening = `${DATELINES[listing.exchange] ?? 'NEW YORK'}, ${longDate(story.at)} /SimWire/ -- ${company} ${exchangeCitation(listing)}`;
  const release = (title: string, lines: string[], ...categories: string[]): Worded => ({
    title,
    summary: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(''),
    categories,
  });
  switch (story.variant) {
    case 0: {
      const growth = between(storyUnit(story, 30), 1, 15, 0.1).toFixed(1);
      const direction = story.tone === 'bullish' ? `Up ${growth}%` : story.tone === 'bearish' ? `Down ${growth}%` : 'Roughly Flat';
      return release(
        `${company} Reports ${quarter} Results; Revenue ${direction} Year over Year`,
        [
          `${opening} today announced financial results for its ${quarter.toLowerCase()}.`,
          story.tone === 'bearish'
            ? `Revenue declined as demand softened in the company's core markets; management withdrew its full-year outlook.`
            : `Management said the company's execution remained strong and raised its full-year outlook.`,
        ],
        'Earnings',
      );
    }
    case 1: {
      const dividend = money(between(storyUnit(story, 31), 0.1, 2.5, 0.01), listing.currency);
      return release(
        `${company} Declares Quarterly Dividend of ${dividend} per Share`,
        [`${opening} today declared a quarterly cash dividend of ${dividend} per share, payable to shareholders of record in 30 days.`],
        'Dividends',
      );
    }
    case 2: {
      const billions = between(storyUnit(story, 32), 1, 50, 1);
      return release(
        `${company} Announces $${billions} Billion Share Repurchase Program`,
        [`${opening} today announced that its board authorized the repurchase of up to $${billions} billion of the company's shares.`],
        'Stock Buyback',
      );
    }
    case 3:
      return release(
        `${company} to Host ${quarter} Earnings Conference Call on ${longDate(story.at + 14 * DAY_MS)}`,
        [`${opening} will host a conference call to discuss its ${quarter.toLowerCase()} results; a live webcast will be available on the company's website.`],
        'Conference Call Announcements',
      );
    default: {
      const coin = story.coin!;
      return release(
        `${company} Expands ${coin.name} (${ticker(coin)}) Trading and Custody for Clients`,
        [
          `${opening} today announced that clients can now buy, sell and hold ${coin.name} alongside their existing accounts, with institutional-grade custody.`,
        ],
        'Cryptocurrency',
        'Financial Technology',
      );
    }
  }
}
