import { SymbolParam } from '../../../common/validation/query-fields';

const COIN_RULE =
  'Matched exactly, else case-insensitively, and answered in the canonical spelling of /hl/prices/mids (`btc` → `BTC`, `XYZ:tsla` → `xyz:TSLA`). ' +
  'An unlisted coin is 400 VALIDATION_ERROR `coin: unknown coin "FOO"`.';

/**
 * A required coin of one market (which one is checked against the listed coins by the service). The
 * example is what Swagger UI's "Try it out" sends, so it must be a coin the demo lists.
 */
export function CoinParam(description: string, example: string) {
  return SymbolParam({ description, example, rule: COIN_RULE });
}
