import { Controller, Get, Post } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { Audience, OpenRoute } from '../../common/auth/audience';
import { AudienceCheck } from './audience.check';
import { PublicApiController, PublicEndpoint } from './public-endpoint.decorator';

@OpenRoute()
@Controller('fine')
class DeclaredController {
  @Get()
  live() {}
}

@Controller('reports')
class HalfDeclaredController {
  @Get(':id')
  @Audience('wallet-session')
  one() {}

  @Post()
  create() {}

  /** Not a route: the check ignores it. */
  helper() {}
}

@PublicApiController('probe', 'Probe')
class KeyController {
  @Get('vip')
  @PublicEndpoint('account.vip', 'VIP')
  vip() {}

  @Get('unpriced')
  unpriced() {}
}

async function checkFor(...controllers: Array<new () => object>): Promise<AudienceCheck> {
  const moduleRef = await Test.createTestingModule({ imports: [DiscoveryModule], controllers, providers: [AudienceCheck] }).compile();
  return moduleRef.get(AudienceCheck);
}

describe(AudienceCheck.name, () => {
  it('passes when every route declares an audience', async () => {
    const sut = await checkFor(DeclaredController);
    expect(sut.findProblems()).toEqual([]);
    expect(() => sut.onModuleInit()).not.toThrow();
  });

  it('names every route that declares no audience, by method, path and handler', async () => {
    const sut = await checkFor(DeclaredController, HalfDeclaredController);
    expect(sut.findProblems()).toEqual(['POST /reports (HalfDeclaredController.create): declares no audience']);
    expect(() => sut.onModuleInit()).toThrow(/routes without a valid audience.*POST \/reports \(HalfDeclaredController\.create\)/);
  });

  it('names a key-pipeline route that has no credit-table entry', async () => {
    const sut = await checkFor(KeyController);
    expect(sut.findProblems()).toEqual([
      'GET /api/public/v1/probe/unpriced (KeyController.unpriced): public route KeyController.unpriced has no @PublicEndpoint',
    ]);
  });
});
