import { Fields } from '../kit/schema-reader';
import { asObject, decimalField, decimalFieldOrNull, isoFromEpoch, mapArray, textOrNull } from './coingecko-reader';
import { DerivativeTicker, SpotTicker } from './coingecko.types';

/**
 * `/coins/{id}/tickers` (spot, CEX and DEX) as venue tickers priced in USD. Tickers CoinGecko flags stale
 * or anomalous are dropped, as is one it cannot price in USD. The body does not say whether a venue is
 * centralised (its `market` has only name, identifier and flags), so venueKind is null and venueId is kept
 * for the caller to look the venue up (`/exchanges/{id}` has `centralized`).
 */
export function parseCoinTickers(json: unknown, label = 'coins/tickers'): SpotTicker[] {
  const tickers = asObject(json, label).array('tickers', (item, path) => parseSpotTicker(asObject(item, path)));
  return tickers.filter((ticker): ticker is SpotTicker => ticker !== null);
}

function parseSpotTicker(ticker: Fields): SpotTicker | null {
  const market = ticker.object('market');
  // Read even when dropped, so a body whose flags changed type fails loudly instead of leaking stale rows.
  const stale = ticker.boolean('is_stale', false);
  const anomaly = ticker.boolean('is_anomaly', false);
  const convertedLast = ticker.objectOrNull('converted_last');
  const price = convertedLast && decimalFieldOrNull(convertedLast, 'usd');
  if (stale || anomaly || price === null) return null;
  const convertedVolume = ticker.objectOrNull('converted_volume');
  return {
    pair: `${ticker.string('base')}/${ticker.string('target')}`,
    venue: market.string('name'),
    venueKind: null,
    venueId: textOrNull(market, 'identifier'),
    marketType: 'spot',
    price,
    volume24h: convertedVolume && decimalFieldOrNull(convertedVolume, 'usd'),
  };
}

const CONTRACT_TYPES: Readonly<Record<string, DerivativeTicker['marketType']>> = { perpetual: 'perp', futures: 'futures' };

/**
 * `/derivatives`: every listed perpetual and dated future across venues (about 2,000), each tagged with the
 * index it tracks so the caller can pick one asset's contracts. A contract type other than perpetual or
 * futures is skipped, not an error: CoinGecko may list more kinds than the contract's market types.
 */
export function parseDerivatives(json: unknown, label = 'derivatives'): DerivativeTicker[] {
  const contracts = mapArray(json, label, (item, path) => parseDerivative(asObject(item, path)));
  return contracts.filter((contract): contract is DerivativeTicker => contract !== null);
}

function parseDerivative(contract: Fields): DerivativeTicker | null {
  const marketType = CONTRACT_TYPES[contract.string('contract_type')];
  if (marketType === undefined) return null;
  const contractSymbol = contract.string('symbol');
  const indexId = contract.string('index_id');
  return {
    pair: derivativePair(contractSymbol, indexId),
    venue: contract.string('market'),
    venueKind: null,
    marketType,
    price: decimalField(contract, 'price'),
    volume24h: decimalFieldOrNull(contract, 'volume_24h'),
    indexId,
    contractSymbol,
    indexPrice: decimalFieldOrNull(contract, 'index'),
    fundingRate: decimalFieldOrNull(contract, 'funding_rate'),
    openInterest: decimalFieldOrNull(contract, 'open_interest'),
    expiresAt: contract.has('expired_at') ? isoFromEpoch(contract.raw.expired_at, contract.at('expired_at'), 'seconds') : null,
  };
}

const SEPARATORS = /^[-_/:]+|[-_/:]+$/g;
/** What venues append to a perpetual's symbol; it names the contract, not the quote currency. */
const PERPETUAL_SUFFIX = /[-_]?(PERPETUAL|PERP|SWAP)$/;
/** A dated future's delivery date ("BTCUSDT_210625"). */
const DELIVERY_SUFFIX = /[-_]\d{6,8}$/;
const CURRENCY_CODE = /^[A-Z0-9]{2,10}$/;

/**
 * A contract symbol as "base/quote" when it reads as the index symbol followed by a currency code
 * (BTCUSDT -> BTC/USDT, BTCUSD_PERP -> BTC/USD, DOGE_USDT -> DOGE/USDT, BTCUSDT_210625 -> BTC/USDT). A bare "-PERP"/"-PERPETUAL"
 * contract (FTX, Deribit) is quoted in USD. Any other spelling ("ETHF0:USTF0", "PI_XBTUSD") is kept as
 * the venue writes it rather than split by a guess.
 */
export function derivativePair(contractSymbol: string, indexId: string): string {
  const symbol = contractSymbol.toUpperCase();
  const base = indexId.toUpperCase();
  if (!CURRENCY_CODE.test(base) || !symbol.startsWith(base) || symbol === base) return contractSymbol;
  const rest = symbol.slice(base.length);
  const quote = rest.replace(PERPETUAL_SUFFIX, '').replace(DELIVERY_SUFFIX, '').replace(SEPARATORS, '');
  if (quote === '' && PERPETUAL_SUFFIX.test(rest)) return `${base}/USD`;
  return CURRENCY_CODE.test(quote) ? `${base}/${quote}` : contractSymbol;
}
