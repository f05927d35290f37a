import { Global, Module } from '@nestjs/common';
import { AdmissionService } from './admission.service';
import { BillingSyncModule } from './billing-sync.module';
import { UsageMeterService } from './usage-meter.service';
import { UsageTotalsService } from './usage-totals.service';

/**
 * Admission (rate limit + credit charge) and refunds, the usage meters (counted in memory, flushed to the
 * KV store) and their totals; the ledger drain and the usage sync in BillingSyncModule. Other modules use
 * it through billing.public.ts.
 */
@Global()
@Module({
  imports: [BillingSyncModule],
  providers: [AdmissionService, UsageMeterService, UsageTotalsService],
  exports: [AdmissionService, UsageMeterService, UsageTotalsService],
})
export class BillingModule {}
