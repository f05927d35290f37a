import { ExecutionContext, Logger } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { Reflector } from '@nestjs/core';
import { declaredAudienceOf, RouteTarget } from '../../common/auth/audience';
import { AppError } from '../../common/errors/app-error';
import { creditCostOf } from '../billing/billing.public';
import { Endpoint, PublicRoute, TakesNoQuery } from './public-endpoint.decorator';

/** A route of the key pipeline: what admission needs of it. */
export interface PublicKeyAccess extends PublicRoute {
  readonly audience: 'public-key';
}

/** Who may call a route, and for key-pipeline routes what they cost; `undeclared` routes are refused. */
export type RouteAccess = PublicKeyAccess | WalletSessionAccess | { readonly audience: 'open' | 'undeclared' };

/** A backend route; one that reads no query (no `@Query()` argument) refuses every query parameter as unknown. */
export interface WalletSessionAccess {
  readonly audience: 'wallet-session';
  readonly takesNoQuery: boolean;
}

const OPEN: RouteAccess = { audience: 'open' };
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
      return { audience: 'wallet-session', takesNoQuery: !readsQuery(handler, controller) };
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

/** Whether the handler has a `@Query()` argument, from the metadata Nest's parameter decorators leave on the controller. */
function readsQuery(handler: RouteTarget, controller: RouteTarget): boolean {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {}) as Record<string, unknown>;
  return Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.QUERY));
}

/** For a route that takes no query parameters: the first one given is unknown, named as a DTO would name it. */
export function refuseAnyQuery(url: string): void {
  const start = url.indexOf('?');
  if (start < 0) return;
  const first = new URLSearchParams(url.slice(start + 1)).keys().next();
  if (!first.done) throw AppError.validation(first.value || 'query', 'is not a known parameter (this endpoint takes none)');
}

export function routeName(handler: RouteTarget, controller: RouteTarget): string {
  return `${controller.name}.${handler.name}`;
}
