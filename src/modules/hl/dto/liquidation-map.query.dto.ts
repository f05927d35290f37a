import { CoinParam } from './hl-query.fields';

export class LiquidationMapQueryDto {
  @CoinParam('Perp symbol (`BTC`) or HIP-3 `dex:SYMBOL`.', 'BTC')
  coin: string;
}
