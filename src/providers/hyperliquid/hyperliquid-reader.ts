import { SchemaReader } from '../kit/schema-reader';
import { HYPERLIQUID_PROVIDER } from './weight-budget';

/** The shape checks of the Hyperliquid schemas: their errors name the provider. */
export const { shapeError, expected, asArray, mapArray, fixedLength, asObject, asString, asDecimal, asInteger, asAddress } = new SchemaReader(
  HYPERLIQUID_PROVIDER,
);
