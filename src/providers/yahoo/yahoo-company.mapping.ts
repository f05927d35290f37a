import { Decimal, toDecimalString } from '../../common/decimal/decimal';
import { Executive, Holding, InsiderTransaction } from '../equities-provider';
import { YahooInsiderRow, YahooOfficer, YahooOwnershipRow } from './yahoo-company.schema';

/** "Sale at price 226.35 per share." gives the price; a range ("248.61 - 251.10") does not: value / shares does. */
const SINGLE_PRICE = /\bat price (\d+(?:\.\d+)?) per share/i;
/** Yahoo's wordings of a disposal and an acquisition; anything else (or no text) leaves the direction unknown. */
const DISPOSAL = /^(sale|stock gift|gift|disposition)\b/i;
const ACQUISITION = /^(purchase|buy|stock award|conversion of exercise|option exercise)\b/i;
const PRICE_DECIMALS = 4;

/**
 * An officer as an executive. Yahoo gives no start date (`yearBorn` and the pay's `fiscalYear` only), so
 * `since` is null; pay is the fiscal year's total, in `currency` (the company's reporting currency).
 */
export function toExecutive(officer: YahooOfficer, currency: string | null): Executive {
  return {
    name: officer.name,
    role: officer.title ?? '',
    age: officer.age,
    since: null,
    compensation: officer.totalPay,
    currency: officer.totalPay === null ? null : currency,
  };
}

/** An institution or fund row; a row without a stake is left out. Yahoo has no fund's own weight: null. */
export function toHolding(row: YahooOwnershipRow): Holding | null {
  if (row.pctHeld === null) return null;
  return { name: row.organization, stake: row.pctHeld, change: row.pctChange, reportedAt: row.reportDate, weight: null };
}

/**
 * An insider's trade. Yahoo has neither the filing date nor the Form 4 code (both null; SEC data may add
 * them); `change` is the shares signed by the wording (negative for sales and gifts), null when the wording
 * does not say.
 */
export function toInsiderTransaction(row: YahooInsiderRow): InsiderTransaction {
  return {
    name: row.filerName,
    relation: row.filerRelation,
    transactionDate: row.startDate,
    filingDate: null,
    transactionCode: null,
    shares: row.shares,
    change: signedChange(row),
    price: priceOf(row),
    value: row.value,
    text: row.transactionText,
  };
}

function signedChange({ transactionText, shares }: YahooInsiderRow): string | null {
  if (shares === null || transactionText === null) return null;
  if (DISPOSAL.test(transactionText)) return new Decimal(shares).abs().negated().toFixed();
  if (ACQUISITION.test(transactionText)) return new Decimal(shares).abs().toFixed();
  return null;
}

function priceOf({ transactionText, value, shares }: YahooInsiderRow): string | null {
  const stated = transactionText === null ? null : SINGLE_PRICE.exec(transactionText);
  if (stated) return toDecimalString(stated[1]);
  if (value === null || shares === null || new Decimal(shares).isZero()) return null;
  return toDecimalString(new Decimal(value).div(shares).abs().decimalPlaces(PRICE_DECIMALS).toFixed());
}
