import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { catchError, from, mergeMap, Observable, tap, throwError } from 'rxjs';
import { AdmissionService } from '../billing/admission.service';
import { requestState } from '../http/request-state';

/**
 * Settles the credit hold taken at admission exactly once: a handler that returns bills it; anything
 * thrown after admission (validation pipe, handler) refunds it before the error envelope goes out.
 */
@Injectable()
export class CreditSettlementInterceptor implements NestInterceptor {
  constructor(private readonly admissions: AdmissionService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const state = requestState(context.switchToHttp().getRequest());
    const admission = state.admission;
    if (!admission) return next.handle();
    return next.handle().pipe(
      tap({
        next: () => this.admissions.settleSuccess(admission, state.requestId),
        complete: () => this.admissions.settleSuccess(admission, state.requestId),
      }),
      catchError((error: unknown) =>
        from(this.admissions.settleFailure(admission, state.requestId)).pipe(mergeMap(() => throwError(() => error))),
      ),
    );
  }
}
