import { Controller, ExecutionContext, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Audience, OpenRoute, WalletSessionRoute } from '../../common/auth/audience';
import { PublicApiController, PublicEndpoint } from './public-endpoint.decorator';
import { resolveRouteAccess, routeAccessOf } from './route-access';

@PublicApiController('probe', 'Probe')
class KeyController {
  @Get('vip')
  @PublicEndpoint('account.vip', 'VIP', { query: false })
  vip() {}

  @Get('forgotten')
  forgotten() {}

  @Get('live')
  @OpenRoute()
  live() {}
}

@WalletSessionRoute()
@Controller('backend')
class SessionController {
  @Get('status')
  status() {}
}

@Controller('bare')
class BareController {
  @Get()
  bare() {}

  @Get('declared')
  @Audience('wallet-session')
  declared() {}
}

function contextOf(controller: { prototype: object }, name: string): ExecutionContext {
  const handler = (controller.prototype as Record<string, () => void>)[name];
  return { getHandler: () => handler, getClass: () => controller } as unknown as ExecutionContext;
}

describe('route access', () => {
  const reflector = new Reflector();
  const resolve = (controller: { prototype: object }, name: string) => {
    const context = contextOf(controller, name);
    return resolveRouteAccess(reflector, context.getHandler(), context.getClass());
  };

  it('puts every route of a public API controller behind the key pipeline, with its cost', () => {
    expect(resolve(KeyController, 'vip')).toEqual({ audience: 'public-key', endpoint: 'account.vip', cost: 1, costText: '1', takesNoQuery: true });
  });

  it('refuses to treat a key-pipeline route without a credit-table entry as free', () => {
    expect(() => resolve(KeyController, 'forgotten')).toThrow('public route KeyController.forgotten has no @PublicEndpoint');
  });

  it("lets a handler's audience override its controller's", () => {
    expect(resolve(KeyController, 'live').audience).toBe('open');
    expect(resolve(BareController, 'declared').audience).toBe('wallet-session');
  });

  it("takes a controller's audience for handlers that declare none", () => {
    expect(resolve(SessionController, 'status').audience).toBe('wallet-session');
  });

  it('marks a route that declares nothing as undeclared, never open', () => {
    expect(resolve(BareController, 'bare').audience).toBe('undeclared');
  });

  it('reads the metadata once per handler', () => {
    const spy = jest.spyOn(reflector, 'getAllAndOverride');
    const context = contextOf(SessionController, 'status');
    const first = routeAccessOf(reflector, context);
    expect(routeAccessOf(reflector, context)).toBe(first);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });
});
