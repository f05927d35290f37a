import { Fields } from '../kit/schema-reader';
import { asObject, asString, decimalFieldOrNull, isoFieldOrNull, nonEmptyStrings, textOrNull } from './coingecko-reader';
import { PriceExtreme } from '../market-data-provider';
import { CryptoAssetDetail, CryptoAssetLinks } from './coingecko.types';

const GENESIS_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `/coins/{id}` (asked without localization, tickers, community and developer data) as the asset's extended
 * metadata. Per-currency maps are read for USD only; a coin without market data gets null figures.
 */
export function parseCoinDetail(json: unknown, label = 'coins/id'): CryptoAssetDetail {
  const coin = asObject(json, label);
  const marketData = coin.objectOrNull('market_data');
  const usd = (key: string): string | null => {
    const byCurrency = marketData?.objectOrNull(key);
    return byCurrency ? decimalFieldOrNull(byCurrency, 'usd') : null;
  };
  const usdTime = (key: string): string | null => {
    const byCurrency = marketData?.objectOrNull(key);
    return byCurrency ? isoFieldOrNull(byCurrency, 'usd') : null;
  };
  const extreme = (price: string, at: string, change: string): PriceExtreme => ({
    price: usd(price),
    at: usdTime(at),
    changePercent: usd(change),
  });

  return {
    sourceId: coin.string('id'),
    symbol: coin.string('symbol').toUpperCase(),
    name: coin.string('name'),
    description: englishDescription(coin),
    categories: nonEmptyStrings(coin, 'categories'),
    links: coin.has('links') ? parseLinks(coin.object('links')) : emptyLinks(),
    imageUrl: coin.has('image') ? textOrNull(coin.object('image'), 'large') : null,
    genesisDate: genesisDate(coin),
    hashingAlgorithm: textOrNull(coin, 'hashing_algorithm'),
    blockTimeMinutes: coin.integerOrNull('block_time_in_minutes'),
    assetPlatform: textOrNull(coin, 'asset_platform_id'),
    contracts: contracts(coin),
    marketCapRank: coin.integerOrNull('market_cap_rank') ?? marketData?.integerOrNull('market_cap_rank') ?? null,
    circulatingSupply: marketData && decimalFieldOrNull(marketData, 'circulating_supply'),
    totalSupply: marketData && decimalFieldOrNull(marketData, 'total_supply'),
    maxSupply: marketData && decimalFieldOrNull(marketData, 'max_supply'),
    fullyDilutedValuation: usd('fully_diluted_valuation'),
    allTimeHigh: extreme('ath', 'ath_date', 'ath_change_percentage'),
    allTimeLow: extreme('atl', 'atl_date', 'atl_change_percentage'),
    updatedAt: isoFieldOrNull(coin, 'last_updated'),
  };
}

function englishDescription(coin: Fields): string | null {
  const description = coin.objectOrNull('description');
  return description ? textOrNull(description, 'en') : null;
}

function parseLinks(links: Fields): CryptoAssetLinks {
  const repos = links.objectOrNull('repos_url');
  return {
    homepage: nonEmptyStrings(links, 'homepage'),
    whitepaper: textOrNull(links, 'whitepaper'),
    blockchainExplorers: nonEmptyStrings(links, 'blockchain_site'),
    forums: nonEmptyStrings(links, 'official_forum_url'),
    chats: nonEmptyStrings(links, 'chat_url'),
    announcements: nonEmptyStrings(links, 'announcement_url'),
    twitterHandle: textOrNull(links, 'twitter_screen_name'),
    subreddit: textOrNull(links, 'subreddit_url'),
    sourceRepositories: repos ? [...nonEmptyStrings(repos, 'github'), ...nonEmptyStrings(repos, 'bitbucket')] : [],
  };
}

function emptyLinks(): CryptoAssetLinks {
  return {
    homepage: [],
    whitepaper: null,
    blockchainExplorers: [],
    forums: [],
    chats: [],
    announcements: [],
    twitterHandle: null,
    subreddit: null,
    sourceRepositories: [],
  };
}

/** A date CoinGecko does not know is "" or null; one in another form is dropped rather than guessed. */
function genesisDate(coin: Fields): string | null {
  const text = textOrNull(coin, 'genesis_date');
  return text !== null && GENESIS_DATE.test(text) ? text : null;
}

/** `platforms` by chain; a native coin has `{"": ""}`, which is no contract. */
function contracts(coin: Fields): Record<string, string> {
  const platforms = coin.objectOrNull('platforms');
  if (!platforms) return {};
  const entries = Object.entries(platforms.raw)
    .filter(([chain, address]) => chain !== '' && address !== null && address !== '')
    .map(([chain, address]) => [chain, asString(address, platforms.at(chain))]);
  // fromEntries defines own properties, so even a "__proto__" chain stays a plain key.
  return Object.fromEntries(entries);
}
