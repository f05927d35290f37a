import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { CoinIndex, HlCatalogService } from '../hl/hl-catalog.service';
import { AssetsRepository } from '../markets/assets.repository';

/** Longest coin a group stores (the column's width). */
export const MAX_COIN_LENGTH = 64;

/**
 * What a watchlist may hold, and under which spelling: first the coins of the /hl endpoints (perp symbols,
 * HIP-3 `dex:SYMBOL` coins, spot token symbols: the keys of /hl/prices/mids), then the listed symbols of the
 * Markets catalogue (a stock under its stock code, `AAPL-US`, as /search shows it). Matched exactly, then
 * ignoring case; the answer is the canonical spelling (`btc` → `BTC`, `XYZ:tsla` → `xyz:TSLA`).
 */
@Injectable()
export class WatchlistCoinsService {
  constructor(
    private readonly hl: HlCatalogService,
    private readonly assets: AssetsRepository,
  ) {}

  /** The canonical coin, or 400 VALIDATION_ERROR naming `coin`. */
  async resolve(input: string): Promise<string> {
    const catalog = await this.hl.get();
    const listed = [catalog.perp, catalog.spot];
    // An exact spelling wins over a case-folded match in another market.
    if (listed.some((index) => index.has(input))) return input;
    for (const index of listed) {
      const coin = resolveQuietly(index, input);
      if (coin !== undefined) return coin;
    }
    const asset = input.length <= MAX_COIN_LENGTH ? await this.assets.resolveSymbol(input) : undefined;
    if (asset?.listed) return asset.stockCode ?? asset.symbol;
    throw AppError.validation(
      'coin',
      `unknown coin ${JSON.stringify(input.slice(0, MAX_COIN_LENGTH))} (expected a coin of /hl/prices/mids, e.g. BTC or xyz:TSLA, ` +
        'or a Markets catalogue symbol; where case alone tells two coins apart, the exact spelling)',
    );
  }
}

function resolveQuietly(index: CoinIndex, input: string): string | undefined {
  try {
    return index.resolve(input);
  } catch {
    return undefined;
  }
}
