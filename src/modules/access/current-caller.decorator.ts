import { Req } from '@nestjs/common';
import { handlerParamFromRequest } from '../../common/decorators/enveloped.decorator';
import { ApiCaller } from '../account/api-caller';
import { microToCredits } from '../billing/billing.public';
import { callState } from './call-state';

export interface CallerContext {
  caller: ApiCaller;
  /** Live balance after this call's hold, in credits; null on unmetered (Free) accounts. */
  liveBalance: string | null;
}

/**
 * The key holder of a public route, as the pipeline resolved and admitted it. For routes of an
 * `@Enveloped` controller (every `@PublicApiController`), whose handler wrapper turns the argument into
 * the CallerContext (handlerParamFromRequest, callerContextOf).
 *
 * Declared to Nest as the request parameter rather than made with createParamDecorator: Nest passes a
 * custom parameter through every global pipe, so the ValidationPipe and its chain of promises ran on each
 * billed call for a value it never validates (docs/benchmarks.md).
 */
export function CurrentCaller(): ParameterDecorator {
  return (target, method, index) => {
    Req()(target, method, index);
    handlerParamFromRequest(target, method!, index, callerContextOf);
  };
}

/** What @CurrentCaller hands a handler, from the request the pipeline's guard admitted. */
export function callerContextOf(req: unknown): CallerContext {
  const state = callState(req);
  const balance = state.admission?.balanceMicro ?? null;
  return { caller: state.caller!, liveBalance: balance === null ? null : microToCredits(balance) };
}
