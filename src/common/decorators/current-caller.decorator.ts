import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiCaller } from '../auth/api-caller';
import { microToCredits } from '../billing/credit-units';
import { requestState } from '../http/request-state';

export interface CallerContext {
  caller: ApiCaller;
  /** Live balance after this call's hold, in credits; null on unmetered (Free) accounts. */
  liveBalance: string | null;
}

/** The key holder of a public route, as the pipeline resolved and admitted it. */
export const CurrentCaller = createParamDecorator((_data: unknown, ctx: ExecutionContext): CallerContext => {
  const state = requestState(ctx.switchToHttp().getRequest());
  const balance = state.admission?.balanceMicro ?? null;
  return { caller: state.caller!, liveBalance: balance === null ? null : microToCredits(balance) };
});
