import { HttpAdapterHost } from '@nestjs/core';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { PortalAssets } from './portal-assets';
import { PORTAL_CSP, PortalController } from './portal.controller';

describe(PortalController.name, () => {
  function setUp(assets: Partial<PortalAssets>) {
    const headers: Record<string, string> = {};
    const adapter = { isHeadersSent: () => false, setHeader: (_res: unknown, name: string, value: string) => (headers[name] = value) };
    const sut = new PortalController(assets as PortalAssets, { httpAdapter: adapter } as unknown as HttpAdapterHost);
    return { sut, headers };
  }

  it('answers 503 SERVICE_UNAVAILABLE, naming the build command, while the page is not built; the policy headers still go out', () => {
    const { sut, headers } = setUp({ built: false, find: () => undefined });

    let thrown: unknown;
    try {
      sut.file('app.js', {});
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).code).toBe(ErrorCode.SERVICE_UNAVAILABLE);
    expect((thrown as AppError).message).toContain('npm run build:portal');
    expect(headers['content-security-policy']).toBe(PORTAL_CSP);
    expect(headers['x-content-type-options']).toBe('nosniff');
  });
});
