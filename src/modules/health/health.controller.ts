import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheckError, HealthCheckService, HealthIndicatorResult, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { OpenRoute } from '../../common/auth/audience';
import { ApiEnvelope, ApiErrorResponse } from '../../common/decorators/api-envelope.decorator';
import { Enveloped } from '../../common/decorators/enveloped.decorator';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { LivenessDto, ReadinessDto } from './dto/health.dto';

/** Probes need no key: `security: []` says so in OpenAPI (no requirement, not an undocumented one). */
const OPEN = { security: [] };

/** Probes for orchestrators; outside the key pipeline (no API key, not rate-limited). */
@ApiTags('Health')
@OpenRoute()
@Enveloped()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    @Inject(KV_STORE) private readonly kv: KvStore,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process answers', ...OPEN })
  @ApiEnvelope(LivenessDto, { open: true })
  live(): LivenessDto {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the database and the KV store answer (503 SERVICE_UNAVAILABLE otherwise)', ...OPEN })
  @ApiEnvelope(ReadinessDto, { open: true })
  @ApiErrorResponse(503, [ErrorCode.SERVICE_UNAVAILABLE], 'The database or the KV store does not answer; msg names which', { open: true })
  async ready() {
    try {
      const result = await this.health.check([() => this.database.pingCheck('database', { timeout: 2000 }), () => this.pingKv()]);
      return { status: result.status, checks: result.details };
    } catch (error) {
      const failing = Object.keys((error as { response?: { error?: object } }).response?.error ?? {});
      throw new AppError(ErrorCode.SERVICE_UNAVAILABLE, `not ready: ${failing.join(', ') || 'dependency check failed'}`);
    }
  }

  private async pingKv(): Promise<HealthIndicatorResult> {
    try {
      await this.kv.ping();
      return { kv: { status: 'up', kind: this.kv.kind } };
    } catch (error) {
      throw new HealthCheckError('kv', { kv: { status: 'down', message: (error as Error).message } });
    }
  }
}
