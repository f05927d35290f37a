import { Global, Module } from '@nestjs/common';
import { AdmissionService } from './admission.service';
import { LedgerFlusherService } from './ledger-flusher.service';
import { LedgerRepository } from './ledger.repository';

/** Admission (rate limit + credit hold), settlement, and the outbox-to-ledger flusher. */
@Global()
@Module({
  providers: [AdmissionService, LedgerRepository, LedgerFlusherService],
  exports: [AdmissionService, LedgerFlusherService],
})
export class BillingModule {}
