import { Global, Module } from '@nestjs/common';
import { AdmissionService } from './admission.service';
import { LedgerFlusherService } from './ledger-flusher.service';
import { LedgerRepository } from './ledger.repository';
import { UsageMeterService } from './usage-meter.service';

/** Admission (rate limit + credit charge), refunds, the usage meter and the outbox-to-ledger flusher. */
@Global()
@Module({
  providers: [AdmissionService, UsageMeterService, LedgerRepository, LedgerFlusherService],
  exports: [AdmissionService, UsageMeterService, LedgerFlusherService],
})
export class BillingModule {}
