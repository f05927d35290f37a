import { Req } from '@nestjs/common';
import { ApiCaller } from '../auth/api-caller';
import { microToCredits } from '../billing/credit-units';
import { requestState } from '../http/request-state';

export interface CallerContext {
  caller: ApiCaller;
  /** Live balance after this call's hold, in credits; null on unmetered (Free) accounts. */
  liveBalance: string | null;
}

const CALLER_PARAM = Symbol('currentCallerParam');

/**
 * The key holder of a public route, as the pipeline resolved and admitted it. For routes of an
 * `@Enveloped` controller (every `@PublicApiController`), whose handler wrapper turns the argument into
 * the CallerContext (callerParamOf, callerContextOf).
 *
 * Declared to Nest as the request parameter rather than made with createParamDecorator: Nest passes a
 * custom parameter through every global pipe, so the ValidationPipe and its chain of promises ran on each
 * billed call for a value it never validates (docs/benchmarks.md, ninth session).
 */
export function CurrentCaller(): ParameterDecorator {
  return (target, method, index) => {
    Req()(target, method, index);
    Reflect.defineMetadata(CALLER_PARAM, index, target.constructor, method!);
  };
}

/** The position of a handler's @CurrentCaller parameter, if it has one. */
export function callerParamOf(controller: object, method: string): number | undefined {
  return Reflect.getMetadata(CALLER_PARAM, controller.constructor, method) as number | undefined;
}

/** What @CurrentCaller hands a handler, from the request the pipeline's guard admitted. */
export function callerContextOf(req: unknown): CallerContext {
  const state = requestState(req);
  const balance = state.admission?.balanceMicro ?? null;
  return { caller: state.caller!, liveBalance: balance === null ? null : microToCredits(balance) };
}
