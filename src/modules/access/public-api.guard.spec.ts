import { Controller, ExecutionContext, Get, Logger } from '@nestjs/common';
import { HttpAdapterHost, Reflector } from '@nestjs/core';
import { OpenRoute, WalletSessionRoute } from '../../common/auth/audience';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { ApiCallerCache } from '../account/api-caller.cache';
import { AdmissionService } from '../billing/billing.public';
import { callState } from './call-state';
import { principalOf, walletPrincipal } from './principal';
import { PublicApiGuard } from './public-api.guard';
import { HttpShutdownService } from '../../infra/http/http-shutdown.service';
import { WALLET_SESSION_REQUIRED, WalletSessionVerifier } from './wallet-session.verifier';

@Controller('bare')
class UndeclaredController {
  @Get()
  list() {}
}

@OpenRoute()
@Controller('open')
class OpenController {
  @Get()
  live() {}
}

@WalletSessionRoute()
@Controller('backend')
class SessionController {
  @Get()
  status() {}
}

/** Any use of the key pipeline's collaborators fails the test: these routes must never reach it. */
const untouchable = new Proxy(
  {},
  {
    get: (_target, name) => {
      throw new Error(`the key pipeline was used (${String(name)})`);
    },
  },
);

function contextFor(controller: { prototype: object }, name: string, req: object): ExecutionContext {
  const handler = (controller.prototype as Record<string, () => void>)[name];
  return {
    getHandler: () => handler,
    getClass: () => controller,
    getArgs: () => [req, {}],
  } as unknown as ExecutionContext;
}

function requestWith(headers: Record<string, string> = {}): { method: string; headers: Record<string, string> } {
  return { method: 'GET', headers };
}

/** A verifier that admits no session, as the real one does for a request without a valid token. */
const noSession: WalletSessionVerifier = { verify: () => Promise.reject(new AppError(ErrorCode.UNAUTHORIZED, WALLET_SESSION_REQUIRED)) };

describe(PublicApiGuard.name, () => {
  const guardWith = (verifier: WalletSessionVerifier) =>
    new PublicApiGuard(new Reflector(), untouchable as ApiCallerCache, untouchable as AdmissionService, untouchable as HttpAdapterHost, verifier, {
      onResponseCut: () => undefined,
    } as unknown as HttpShutdownService);

  it('refuses a route that declares no audience, even with a key, and says so in the log once', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const sut = guardWith(noSession);
    const req = requestWith({ 'x-api-key': 'mk_anything' });
    for (let call = 0; call < 2; call++) {
      const refusal = sut.canActivate(contextFor(UndeclaredController, 'list', req));
      await expect(refusal).rejects.toBeInstanceOf(AppError);
      await expect(refusal).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
    }
    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged.mock.calls[0][0]).toContain('UndeclaredController.list declares no audience');
    logged.mockRestore();
  });

  it('lets an open route through without looking at any key', async () => {
    const sut = guardWith(noSession);
    await expect(sut.canActivate(contextFor(OpenController, 'live', requestWith({ 'x-api-key': 'mk_anything' })))).resolves.toBe(true);
  });

  it("refuses a wallet-session route on the verifier's refusal, recording no principal", async () => {
    const sut = guardWith(noSession);
    const req = requestWith({ authorization: 'Bearer whatever' });
    const refusal = sut.canActivate(contextFor(SessionController, 'status', req));
    await expect(refusal).rejects.toMatchObject({ code: ErrorCode.UNAUTHORIZED, message: WALLET_SESSION_REQUIRED });
    expect(callState(req).principal).toBeUndefined();
  });

  it("admits a wallet-session route on the verifier's word and records its principal", async () => {
    const wallet = walletPrincipal({ accountId: 'acc-1', walletAddress: '0xABCDEF0000000000000000000000000000000001' });
    const verify = jest.fn().mockResolvedValue(wallet);
    const sut = guardWith({ verify });
    const req = requestWith({ authorization: 'Bearer token' });
    await expect(sut.canActivate(contextFor(SessionController, 'status', req))).resolves.toBe(true);
    expect(verify).toHaveBeenCalledWith(req);
    expect(principalOf(req)).toEqual({ kind: 'wallet-session', accountId: 'acc-1', walletAddress: '0xabcdef0000000000000000000000000000000001' });
  });
});
