import { AppError } from '../common/errors/app-error';
import { AddedAsset, AssetCatalogueService } from '../modules/markets/asset-catalogue.service';
import type { CliCommand, OptionName } from './commands';

/** The job that writes the seed list and quotes every listed stock, ETF, FX pair and future. */
const TRADFI_JOB = 'markets.tradfi';

/** Ops commands of the Markets catalogue. */
export const MARKETS_COMMANDS: Record<string, CliCommand> = {
  'asset:add': {
    summary:
      'Add a stock, ETF, FX pair or future the vendor quotes to the Markets catalogue, by its Yahoo symbol (9988.HK, SI=F, CHF=X); a stock takes the vendor’s sector and industry unless given',
    options: [],
    optional: ['sector', 'industry'],
    positional: 'yahooSymbol',
    async run(app, { positional, sector, industry }) {
      const asset = await app.get(AssetCatalogueService).addAsset({
        yahooSymbol: positional!,
        sector: labelOption('sector', sector),
        industry: labelOption('industry', industry),
      });
      return {
        json: { asset },
        text: [`added ${asset.symbol} (${describeAsset(asset)}) as asset ${asset.id}, quoted now; ${TRADFI_JOB} keeps its quote fresh`],
      };
    },
  },
};

/** A label as typed, trimmed; an option given blank is refused rather than stored as an empty sector or category. */
function labelOption(option: OptionName, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const label = value.trim();
  if (label === '') throw AppError.validation(option, 'must not be blank');
  return label;
}

/** Type, then market, stock code and currency where the asset has them: `STOCK, HK, 9988-HK, HKD` or `FOREX, CHF`. */
function describeAsset(asset: AddedAsset): string {
  return [asset.type, asset.market, asset.stockCode, asset.currency].filter((part) => part !== null && part !== undefined).join(', ');
}
