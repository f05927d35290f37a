import { parseFeed } from '@rowanmanning/feed-parser';
import { vendorFixtureText } from './vendor-fixtures';

/** A recorded feed item as the linker and the concept detector read it. */
export interface RecordedHeadline {
  title: string;
  summary: string;
  categories: string[];
}

/** Every item of the four recorded outlet feeds (../shared/fixtures/news), markup stripped from the summary. */
export function recordedHeadlines(): RecordedHeadline[] {
  return ['coindesk', 'cointelegraph', 'decrypt', 'theblock'].flatMap((feed) =>
    parseFeed(vendorFixtureText('news', `${feed}.rss.xml`)).items.map((item) => ({
      title: item.title ?? '',
      summary: (item.description ?? '').replace(/<[^>]*>/g, ' '),
      categories: item.categories.flatMap((category) => category.label ?? []),
    })),
  );
}

/** The recorded item whose headline starts with `prefix`; throws when there is none, so a test cannot pass on nothing. */
export function headlineStartingWith(items: readonly RecordedHeadline[], prefix: string): RecordedHeadline {
  const item = items.find((candidate) => candidate.title.startsWith(prefix));
  if (!item) throw new Error(`no recorded headline starts with "${prefix}"`);
  return item;
}
