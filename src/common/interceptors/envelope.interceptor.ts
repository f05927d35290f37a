import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';

export interface Envelope<T> {
  code: '0';
  msg: 'success';
  data: T;
}

/** Wraps every successful body in the contract envelope {code:"0", msg:"success", data}. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<Envelope<unknown>> {
    return next.handle().pipe(map((data: unknown) => ({ code: '0', msg: 'success', data: data ?? null })));
  }
}
