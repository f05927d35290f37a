import 'reflect-metadata';
import { CanActivate, Controller, ExecutionContext, Get, Header, Injectable, Module, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import Redis from 'ioredis';
import { AddressInfo } from 'node:net';

/**
 * The reference point the issue quotes ("a minimal Nest + Fastify app with one Redis round trip per
 * request reaches about 45 %"): one controller, one guard that counts the call in a per-key, per-minute
 * window with a single INCR, and the billed route's body. Not the product: its row tells, in the same
 * run, what the framework plus one small round trip costs on this machine.
 */
// Auto-pipelining on: for a one-INCR round trip it is the faster choice (the app's admission script is not
// so cheap, and the app leaves it off: docs/benchmarks.md).
const redis = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379', { enableAutoPipelining: true });
const prefix = `${process.env.REDIS_KEY_PREFIX ?? 'bench:minimal:'}w:`;
const bodyText = process.env.BENCH_BODY ?? '{"code":"0","msg":"success","data":{}}';
const body = JSON.parse(bodyText) as unknown;
// The mids route sends JSON made once per refresh as bytes, so its reference does too (bench:hl).
const bodyBytes = Buffer.from(bodyText);

@Injectable()
class OneRoundTripGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const key = String(context.switchToHttp().getRequest<{ headers: Record<string, string> }>().headers['x-api-key'] ?? 'none');
    const count = await redis.incr(`${prefix}${key}:${Math.floor(Date.now() / 60_000)}`);
    return count > 0;
  }
}

@Controller()
class MinimalController {
  @Get('/api/public/v1/account/credits')
  @UseGuards(OneRoundTripGuard)
  credits(): unknown {
    return body;
  }

  @Get('/api/public/v1/hl/prices/mids')
  @UseGuards(OneRoundTripGuard)
  @Header('content-type', 'application/json; charset=utf-8')
  mids(): Buffer {
    return bodyBytes;
  }
}

@Module({ controllers: [MinimalController] })
class MinimalModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(MinimalModule, new FastifyAdapter(), { logger: false });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  process.stdout.write(`BENCH_READY ${JSON.stringify({ port })}\n`);
}

void main();
// The orchestrator stops servers with SIGTERM; exit at once rather than wait for keep-alive sockets.
process.on('SIGTERM', () => process.exit(0));
