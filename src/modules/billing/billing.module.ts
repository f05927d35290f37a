import { Global, Module } from '@nestjs/common';
import { AccountCreditsModule } from './account-credits.module';
import { AdmissionService } from './admission.service';
import { BillingSyncModule } from './billing-sync.module';
import { CreditBalanceReader } from './credit-balance.reader';
import { CREDIT_STORE_PROVIDER } from './credit-store.provider';
import { UsageHistoryService } from './usage-history.service';
import { UsageMeterService } from './usage-meter.service';
import { UsageTotalsService } from './usage-totals.service';

/**
 * Admission (rate limit + credit charge) on the credits store CREDITS_STORE chose, and refunds, the live
 * balance read, the usage meters (counted in memory, flushed to the KV store), their totals and their daily
 * history; the ledger drain and the usage sync in BillingSyncModule. Other modules use it through
 * billing.public.ts.
 */
@Global()
@Module({
  imports: [BillingSyncModule, AccountCreditsModule],
  providers: [AdmissionService, CreditBalanceReader, UsageMeterService, UsageTotalsService, UsageHistoryService, CREDIT_STORE_PROVIDER],
  exports: [AdmissionService, CreditBalanceReader, UsageMeterService, UsageTotalsService, UsageHistoryService],
})
export class BillingModule {}
