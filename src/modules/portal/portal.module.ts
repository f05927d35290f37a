import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { PORTAL_PATHS, PortalAssets } from './portal-assets';
import { portalPaths } from './portal-build';
import { PORTAL_PATH, PortalController, redirectToPortal } from './portal.controller';

/** The developer portal page at /portal (sources in portal/, built into dist/portal). */
@Module({
  controllers: [PortalController],
  providers: [PortalAssets, { provide: PORTAL_PATHS, useFactory: () => portalPaths() }],
})
export class PortalModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  /**
   * Nest drops a route's trailing slash and Fastify, unlike Express, does not ignore it, so `/portal/` is
   * registered on the adapter itself (as Swagger does for `/docs/`). A redirect carries no data, so it
   * needs no audience; on Express the controller's route answers it first, the same way.
   */
  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    adapter.get(`${PORTAL_PATH}/`, (req: unknown, res: unknown) => redirectToPortal(adapter, req, res));
  }
}
