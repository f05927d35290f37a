/**
 * Billing's public face: everything other modules may use of credits, the ledger, admission, usage
 * meters and the tier table. Outside src/modules/billing, code imports from this file (and AppModule
 * from billing.module.ts), never from the files behind it, so billing can change inside without its
 * users following (billing-boundary.spec.ts holds every importer to that). Re-exports cost nothing per
 * call: a property read on the imported module, as the guard's hot path already did.
 */
export { AccountCreditsModule } from './account-credits.module';
export { AccountCreditsRepository } from './account-credits.repository';
export { AdmitStatus } from './admission.scripts';
export { AdmissionService } from './admission.service';
export type { Admission, AdmissionResult, WindowStanding } from './admission.service';
export { CREDIT_COSTS, creditCostOf } from './credit-costs';
export type { EndpointName } from './credit-costs';
export { CreditBalanceReader } from './credit-balance.reader';
export { periodAt } from './credit-period';
export { creditsToMicro, microToCredits } from './credit-units';
export { CreditTransactionEntity } from './entities/credit-transaction.entity';
export { UsageCounterEntity } from './entities/usage-counter.entity';
export { UsageDailyEntity } from './entities/usage-daily.entity';
export { isMetered, isTier, TIER_NAMES, TIERS } from './tiers';
export type { Tier } from './tiers';
export { USAGE_HISTORY_MAX_DAYS, UsageHistoryService } from './usage-history.service';
export type { DailyUsage } from './usage-history.service';
export { UsageTotalsService } from './usage-totals.service';
