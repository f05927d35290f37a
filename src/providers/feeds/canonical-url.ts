/** Query parameters that only say how a reader arrived (campaign and click ids): the same article with or without them. */
const TRACKING_PARAMETERS = new Set(['fbclid', 'gclid', 'mc_cid', 'mc_eid', '_hsenc', '_hsmi', 'igshid']);

function isTracking(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('utm_') || TRACKING_PARAMETERS.has(lower);
}

function parameterName(pair: string): string {
  const raw = pair.split('=', 1)[0];
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * An article's link as one spelling, so two feeds (or two reads) linking to it with different campaign tags
 * deduplicate: http(s) only, scheme and host lower-cased, tracking parameters and the fragment removed. The
 * other parameters keep their order and their encoding (a re-encoded value may name another page). Null for a
 * link that is not an absolute http(s) URL.
 */
export function canonicalUrl(link: string): string | null {
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && !isTracking(parameterName(pair)));
  url.search = kept.length > 0 ? `?${kept.join('&')}` : '';
  url.hash = '';
  return url.href;
}
