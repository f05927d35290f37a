import { Req } from '@nestjs/common';
import { handlerParamFromRequest } from '../../common/decorators/enveloped.decorator';
import { principalOf } from './principal';

/**
 * Whoever the access guard admitted for this route, API-key caller or wallet session alike, for handlers
 * that serve both (the account reads). For routes of an `@Enveloped` controller, as @CurrentCaller and for
 * the same reason (no pass through the global pipes); a handler takes one of the two, not both.
 */
export function CurrentPrincipal(): ParameterDecorator {
  return (target, method, index) => {
    Req()(target, method, index);
    handlerParamFromRequest(target, method!, index, principalOf);
  };
}
