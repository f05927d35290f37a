/** OpenAPI text shared by the Markets routes (docs/decisions.md, "Markets"). */
import { applyDecorators } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { ApiErrorResponse } from '../../common/decorators/api-envelope.decorator';
import { ErrorCode } from '../../common/errors/error-code';
import { KEY_UNCHECKED } from '../access/public-endpoint.decorator';

export const AGE_HEADER =
  'The response carries the standard `Age` header: whole seconds since its oldest figure left the upstream (the quote refresh for catalogue ' +
  'reads, the cached vendor read for on-demand ones).';

/** The 200's Age header, as documented on every Markets route. */
export const AGE_RESPONSE_HEADER = {
  Age: { description: 'Whole seconds since the oldest figure in the answer left its upstream (RFC 9111)', schema: { type: 'integer', minimum: 0 } },
};

export const CATALOGUE_READ =
  'Served from our catalogue in PostgreSQL (quotes refreshed by scheduled jobs: crypto about every minute, other classes every few minutes), ' +
  'never from an upstream on the request path; each replica keeps an answer for up to 5 s.';

export const ON_DEMAND_READ =
  'Read from the vendor through a shared cache, fresh for 30-60 s; during an upstream outage the last value up to an hour old is served ' +
  '(no stale flag), then 502 MARKET_UPSTREAM_ERROR. A vendor not configured or switched off is 503 MARKET_DATA_DISABLED. Neither is billed.';

export const SYMBOL_RULES =
  'Case-insensitive. Crypto by ticker; a ticker several coins share is the largest by market cap. Stocks by bare ticker or `<TICKER>-<MARKET>` ' +
  '(AAPL and AAPL-US are the same asset); a bare ticker listed on several markets is its primary listing, in the order US, HK, JP, KR. ' +
  'A bare crypto ticker is the coin, never a same-symbol stock or ETF. No match is 404 MARKET_ASSET_NOT_FOUND.';

/** The `{symbol}` path parameter and its 404 (Swagger UI's Try it out sends the example). */
export const ApiSymbolPath = ({ description, example }: { description: string; example: string } = { description: SYMBOL_RULES, example: 'BTC' }) =>
  applyDecorators(
    ApiParam({ name: 'symbol', description, example }),
    ApiErrorResponse(404, [ErrorCode.MARKET_ASSET_NOT_FOUND], 'No asset matches the symbol (msg names `symbol`)'),
  );

/** 502 and 503 of the routes that read a vendor on demand. */
export const ApiVendorFailures = () =>
  applyDecorators(
    ApiErrorResponse(502, [ErrorCode.MARKET_UPSTREAM_ERROR], 'The vendor failed and no value under an hour old is cached; retry with backoff. Not billed'),
    ApiErrorResponse(
      503,
      [ErrorCode.MARKET_DATA_DISABLED, ErrorCode.SERVICE_UNAVAILABLE],
      `No vendor is configured (or it is switched off) for the asset's class. Not billed. SERVICE_UNAVAILABLE: ${KEY_UNCHECKED}`,
    ),
  );
