import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:net';
import { AppConfig } from '../../config/app.config';
import { advertiseEmbeddedServer } from '../../infra/database/embedded-lock';

const TOKEN_BYTES = 32;

/**
 * The per-run secret of the ops routes. It exists only on the embedded database, where the ops CLI cannot
 * open the data folder while this server holds it: once the server listens, its address and the token go
 * into the embedded lock file (owner-only), which is how the CLI on the same machine finds and authenticates
 * to it. On PostgreSQL the CLI reads the database itself, and the ops routes answer nobody.
 */
@Injectable()
export class OpsTokenService implements OnApplicationBootstrap {
  private readonly logger = new Logger(OpsTokenService.name);
  private token: Buffer | null = null;

  constructor(
    private readonly config: ConfigService<AppConfig, true>,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.get('database.url', { infer: true })) return;
    // An application context (the CLI, some tests) has no HTTP server: nobody to advertise.
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server || typeof server.once !== 'function') return;
    this.token = randomBytes(TOKEN_BYTES);
    const advertise = () => this.advertise(server);
    if (server.listening) advertise();
    else server.once('listening', advertise);
  }

  /** Constant-time comparison with this run's token; false when there is none. */
  accepts(presented: string | undefined): boolean {
    if (!this.token || typeof presented !== 'string') return false;
    const given = Buffer.from(presented, 'base64url');
    return given.length === this.token.length && timingSafeEqual(given, this.token);
  }

  private advertise(server: Server): void {
    const address = server.address();
    if (!address || typeof address === 'string' || !this.token) return;
    // A wildcard bind answers on loopback too; the CLI runs on this machine.
    const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
    const dataDir = this.config.get('database.dataDir', { infer: true });
    try {
      if (!advertiseEmbeddedServer(dataDir, { host, port: address.port, opsToken: this.token.toString('base64url') })) {
        this.logger.warn('ops routes off: this process does not hold the embedded lock, so the ops CLI cannot find it');
        this.token = null;
      }
    } catch (error) {
      this.logger.warn(`ops routes off: the embedded lock file could not be updated (${(error as Error).message})`);
      this.token = null;
    }
  }
}
