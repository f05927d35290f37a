import { Controller, Get, Headers } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { OpenRoute } from '../../common/auth/audience';
import { Enveloped } from '../../common/decorators/enveloped.decorator';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { JobRegistry } from '../../jobs/job-registry';
import { JobRunsRepository } from '../../jobs/job-runs.repository';
import { JobStatusView, readJobStatus } from './job-status';
import { OpsTokenService } from './ops-token.service';

export const OPS_TOKEN_HEADER = 'x-ops-token';

/**
 * Ops reads for the CLI on this machine; outside the public key pipeline (no API key, no rate limit, no
 * credits) and left out of the OpenAPI document. Without this run's token the routes answer exactly like
 * an unknown route, so they reveal nothing to anyone else: open to the access guard, the token is checked here.
 */
@ApiExcludeController()
@OpenRoute()
@Enveloped()
@Controller('ops')
export class OpsController {
  constructor(
    private readonly token: OpsTokenService,
    private readonly registry: JobRegistry,
    private readonly runs: JobRunsRepository,
  ) {}

  @Get('jobs')
  async jobs(@Headers(OPS_TOKEN_HEADER) token: string | undefined): Promise<{ jobs: JobStatusView[] }> {
    if (!this.token.accepts(token)) throw new AppError(ErrorCode.NOT_FOUND, 'route not found');
    return { jobs: await readJobStatus(this.registry, this.runs) };
  }
}
