import { ExecutionContext, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { declaredAudienceOf, RouteTarget } from '../../common/auth/audience';
import { creditCostOf } from '../billing/billing.public';
import { Endpoint, PublicRoute, TakesNoQuery } from './public-endpoint.decorator';

/** A route of the key pipeline: what admission needs of it. */
export interface PublicKeyAccess extends PublicRoute {
  readonly audience: 'public-key';
}

/** Who may call a route, and for key-pipeline routes what they cost; `undeclared` routes are refused. */
export type RouteAccess = PublicKeyAccess | { readonly audience: 'wallet-session' | 'open' | 'undeclared' };

const OPEN: RouteAccess = { audience: 'open' };
const WALLET_SESSION: RouteAccess = { audience: 'wallet-session' };
const UNDECLARED: RouteAccess = { audience: 'undeclared' };

const accessByHandler = new WeakMap<object, RouteAccess>();
const logger = new Logger('RouteAccess');

/**
 * The access metadata of the route being served, read once per handler: one map lookup per request
 * instead of several reflector reads.
 */
export function routeAccessOf(reflector: Reflector, context: ExecutionContext): RouteAccess {
  const handler = context.getHandler();
  let access = accessByHandler.get(handler);
  if (access === undefined) {
    access = resolveRouteAccess(reflector, handler, context.getClass());
    if (access === UNDECLARED) logger.error(`${routeName(handler, context.getClass())} declares no audience: every call is refused`);
    accessByHandler.set(handler, access);
  }
  return access;
}

/**
 * What a route's decorators say about its callers. Fails closed: a key-pipeline route without a
 * credit-table entry is a programming error (thrown), not a free call; a route without an audience is
 * `undeclared`, never open.
 */
export function resolveRouteAccess(reflector: Reflector, handler: RouteTarget, controller: RouteTarget): RouteAccess {
  switch (declaredAudienceOf(reflector, handler, controller)) {
    case 'public-key':
      return publicKeyAccess(reflector, handler, controller);
    case 'wallet-session':
      return WALLET_SESSION;
    case 'open':
      return OPEN;
    default:
      return UNDECLARED;
  }
}

function publicKeyAccess(reflector: Reflector, handler: RouteTarget, controller: RouteTarget): PublicKeyAccess {
  const endpoint = reflector.get(Endpoint, handler);
  if (!endpoint) throw new Error(`public route ${routeName(handler, controller)} has no @PublicEndpoint`);
  const cost = creditCostOf(endpoint);
  return { audience: 'public-key', endpoint, cost, costText: String(cost), takesNoQuery: reflector.get(TakesNoQuery, handler) === true };
}

export function routeName(handler: RouteTarget, controller: RouteTarget): string {
  return `${controller.name}.${handler.name}`;
}
