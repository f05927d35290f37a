import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsUrl, Max, Min, ValidateBy, ValidateIf } from 'class-validator';
import { emptyToUndefined, toInt } from './env-validators';
import { NewsVariables } from './news.env';

export type FilingsVendor = 'sec' | 'none';

/** SEC's own limit is 10 requests a second per user, all machines together; past it the address is blocked for about 10 minutes. */
export const SEC_MAX_REQUESTS_PER_SECOND = 10;
/** A contact address somewhere in the User-Agent: what SEC asks every automated client to declare. */
const CONTACT_EMAIL = /[^\s@()<>]+@[^\s@()<>]+\.[A-Za-z]{2,}/;
const SEC_USER_AGENT_EXAMPLE = '"Sample Company Name AdminContact@example.com"';

/**
 * Who answers filings when STOCK_FILINGS_VENDOR is unset: SEC once a User-Agent is declared, else none (the
 * route answers 503), so a newcomer's empty environment still starts. Set explicitly, it is what it says, and
 * `sec` without SEC_USER_AGENT stops the start, in every environment.
 */
export function filingsVendorOf(env: Pick<StockVendorVariables, 'STOCK_FILINGS_VENDOR' | 'SEC_USER_AGENT'>): FilingsVendor {
  return env.STOCK_FILINGS_VENDOR ?? (env.SEC_USER_AGENT ? 'sec' : 'none');
}

/** SEC_USER_AGENT: required while SEC is the vendor, one message whether it is missing or has no contact address. */
function IsSecUserAgent() {
  return ValidateBy({
    name: 'isSecUserAgent',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && value.length <= 200 && !/[\r\n]/.test(value) && CONTACT_EMAIL.test(value),
      defaultMessage: (args) =>
        args?.value === undefined
          ? `SEC_USER_AGENT must be set when STOCK_FILINGS_VENDOR is sec: SEC refuses clients without a declared User-Agent such as ${SEC_USER_AGENT_EXAMPLE} (or set STOCK_FILINGS_VENDOR=none)`
          : `SEC_USER_AGENT must name the company and a contact email, as ${SEC_USER_AGENT_EXAMPLE}, in at most 200 characters on one line`,
    },
  });
}

/** The stocks vendors' settings (SEC EDGAR filings); MarketVendorVariables extends it. */
export class StockVendorVariables extends NewsVariables {
  /** Who answers `/stock/{symbol}/sec-filings`; none: 503 MARKET_DATA_DISABLED. Unset: see filingsVendorOf. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['sec', 'none'])
  STOCK_FILINGS_VENDOR?: FilingsVendor;

  /** "Company Name contact@company.com", sent on every SEC request; checked whenever set or SEC is the vendor. */
  @Transform(emptyToUndefined)
  @ValidateIf((env: StockVendorVariables) => env.SEC_USER_AGENT !== undefined || filingsVendorOf(env) === 'sec')
  @IsSecUserAgent()
  SEC_USER_AGENT?: string;

  /** data.sec.gov: submissions (the filing index of one registrant). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  SEC_DATA_URL = 'https://data.sec.gov';

  /** www.sec.gov: company_tickers.json and the filing documents under /Archives/edgar/data. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  SEC_FILES_URL = 'https://www.sec.gov';

  /**
   * The public base of a filing's `reportUrl`, for clients to open: the SEC's own site whatever host the data
   * is read from (a mirror or the simulator is no address to hand out).
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  SEC_ARCHIVES_URL = 'https://www.sec.gov';

  /** Requests a second shared by every replica, kept under SEC's 10 so a request crossing a second boundary stays inside it. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(SEC_MAX_REQUESTS_PER_SECOND)
  SEC_REQUESTS_PER_SECOND = 8;
}
