import { Global, Module } from '@nestjs/common';
import { AdmissionService } from './admission.service';
import { BillingSyncModule } from './billing-sync.module';
import { CreditBalanceReader } from './credit-balance.reader';
import { UsageHistoryService } from './usage-history.service';
import { UsageMeterService } from './usage-meter.service';
import { UsageTotalsService } from './usage-totals.service';

/**
 * Admission (rate limit + credit charge) and refunds, the live balance read, the usage meters (counted in
 * memory, flushed to the KV store), their totals and their daily history; the ledger drain and the usage
 * sync in BillingSyncModule. Other modules use it through billing.public.ts.
 */
@Global()
@Module({
  imports: [BillingSyncModule],
  providers: [AdmissionService, CreditBalanceReader, UsageMeterService, UsageTotalsService, UsageHistoryService],
  exports: [AdmissionService, CreditBalanceReader, UsageMeterService, UsageTotalsService, UsageHistoryService],
})
export class BillingModule {}
