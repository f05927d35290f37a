import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { AbstractHttpAdapter, HttpAdapterHost } from '@nestjs/core';
import { ApiExcludeController } from '@nestjs/swagger';
import { OpenRoute } from '../../common/auth/audience';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { setResponseHeaders } from '../../common/http/response-headers';
import { PORTAL_INDEX, PortalAssets } from './portal-assets';

export const PORTAL_PATH = '/portal';

/** The page runs its own bundle and stylesheet and talks to this origin only; nothing inline, no frames. */
export const PORTAL_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** On every /portal answer, refusals and redirects included (set before anything is looked up). */
const PORTAL_HEADERS = {
  'content-security-policy': PORTAL_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};
const PERMANENT_REDIRECT = 308;

/**
 * The developer portal's static files (GET /portal and GET /portal/<file>), open to anyone and left out of
 * the OpenAPI document. Bytes and headers go through the adapter, so Express and Fastify answer alike.
 */
@ApiExcludeController()
@OpenRoute()
@Controller('portal')
export class PortalController {
  constructor(
    private readonly assets: PortalAssets,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Express routes `/portal/` here too; it is sent to `/portal`, as PortalModule does on Fastify. */
  @Get()
  index(@Req() req: unknown, @Res() res: unknown): void {
    const adapter = this.adapterHost.httpAdapter;
    if (pathOf(adapter.getRequestUrl(req)).endsWith('/')) return redirectToPortal(adapter, req, res);
    adapter.reply(res, this.serve(res, PORTAL_INDEX), 200);
  }

  @Get(':file')
  file(@Param('file') name: string, @Res({ passthrough: true }) res: unknown): Buffer {
    return this.serve(res, name);
  }

  private serve(res: unknown, name: string): Buffer {
    const adapter = this.adapterHost.httpAdapter;
    setResponseHeaders(adapter, res, PORTAL_HEADERS);
    if (!this.assets.built) throw new AppError(ErrorCode.SERVICE_UNAVAILABLE, 'portal: not built; run `npm run build:portal`');
    const file = this.assets.find(name);
    if (!file) throw new AppError(ErrorCode.NOT_FOUND, 'route not found');
    setResponseHeaders(adapter, res, { 'content-type': file.contentType, 'cache-control': file.cacheControl });
    return file.body;
  }
}

/** `/portal/` (any query kept) to `/portal`: the one address of the page, whatever the adapter's trailing-slash rules. */
export function redirectToPortal(adapter: AbstractHttpAdapter, req: unknown, res: unknown): void {
  const url = adapter.getRequestUrl(req);
  const query = url.indexOf('?');
  setResponseHeaders(adapter, res, PORTAL_HEADERS);
  adapter.redirect(res, PERMANENT_REDIRECT, PORTAL_PATH + (query >= 0 ? url.slice(query) : ''));
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query >= 0 ? url.slice(0, query) : url;
}
