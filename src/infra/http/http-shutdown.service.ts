import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import { Server, ServerResponse } from 'node:http';
import { AppConfig } from '../../config/app.config';
import { HttpDrain } from './http-drain';

/**
 * The first step of every stop (a signal, or app.close()): the HTTP server drains (HttpDrain) before any
 * other hook runs. Provided by the root module, whose hooks Nest runs before those of the modules it
 * imports: the upstream clients abort their calls in the same phase, and a request still in flight would
 * fail instead of being answered. The billing flushes come after, so they carry every answered call.
 * Also where the key pipeline hears of answers a connection lost before they were handed over.
 */
@Injectable()
export class HttpShutdownService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Lifecycle');
  private drain?: HttpDrain;
  private readonly cutListeners: Array<(res: ServerResponse) => void> = [];

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  /** Before listen(): the drain sees every connection the server will have. */
  onModuleInit(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return;
    this.drain = new HttpDrain(server, this.graceMs());
    for (const listener of this.cutListeners) this.drain.onResponseCut(listener);
  }

  /** See HttpDrain.onResponseCut; may be called before the server exists. */
  onResponseCut(listener: (res: ServerResponse) => void): void {
    this.cutListeners.push(listener);
    this.drain?.onResponseCut(listener);
  }

  async onModuleDestroy(): Promise<void> {
    if (!this.drain) return;
    const { inFlight, cut } = await this.drain.drain();
    if (cut > 0) {
      this.logger.warn(`HTTP server closed: ${cut} connection(s) still busy after ${this.graceMs()} ms (HTTP_SHUTDOWN_GRACE_MS) were cut`);
    } else if (inFlight > 0) {
      this.logger.log(`HTTP server closed after answering the ${inFlight} request(s) in flight`);
    }
  }

  private graceMs(): number {
    return this.config.get('httpServer.shutdownGraceMs', { infer: true });
  }
}
