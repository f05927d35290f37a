import { Injectable, OnModuleInit, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { RouteTarget } from '../../common/auth/audience';
import { resolveRouteAccess, routeName } from './route-access';

/**
 * Default-deny at start-up: every route handler must declare its audience (on the handler or its
 * controller), and every key-pipeline route its credit-table entry. Otherwise the app refuses to start,
 * naming each offending route. Runs before any job is scheduled or port opened; the access guard still
 * refuses an undeclared route should one ever be mounted where this cannot see it.
 */
@Injectable()
export class AudienceCheck implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    const problems = this.findProblems();
    if (problems.length > 0) {
      throw new Error(`routes without a valid audience (declare @PublicApiController, @OpenRoute() or @Audience()): ${problems.join('; ')}`);
    }
  }

  /** One line per offending route, e.g. `GET /reports (ReportsController.list): declares no audience`. */
  findProblems(): string[] {
    const problems: string[] = [];
    for (const { metatype } of this.discovery.getControllers()) {
      if (typeof metatype !== 'function') continue;
      const prototype = metatype.prototype as Record<string, unknown>;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name] as RouteTarget;
        if (Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        const problem = this.problemOf(handler, metatype);
        if (problem) problems.push(`${describeRoute(handler, metatype)} (${routeName(handler, metatype)}): ${problem}`);
      }
    }
    return problems;
  }

  private problemOf(handler: RouteTarget, controller: RouteTarget): string | undefined {
    try {
      return resolveRouteAccess(this.reflector, handler, controller).audience === 'undeclared' ? 'declares no audience' : undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }
}

/** `GET /api/public/v1/hl/mids`, from the controller's and the handler's route metadata. */
function describeRoute(handler: object, controller: object): string {
  const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod] ?? 'ANY';
  const path = [Reflect.getMetadata(PATH_METADATA, controller), Reflect.getMetadata(PATH_METADATA, handler)]
    .map((part: unknown) => (Array.isArray(part) ? part.join('|') : String(part ?? '')).replace(/^\/+|\/+$/g, ''))
    .filter((part) => part !== '')
    .join('/');
  return `${method} /${path}`;
}
