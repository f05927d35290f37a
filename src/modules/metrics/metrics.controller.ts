import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { OpenRoute } from '../../common/auth/audience';
import { METRICS_REGISTRY } from '../../infra/metrics/metrics';

/**
 * Prometheus scrapes this: the exposition text as it is (no envelope, no key, no rate limit, no credits),
 * left out of the OpenAPI document. Absent when METRICS_ENABLED=false (MetricsModule is not mounted).
 */
@ApiExcludeController()
@OpenRoute()
@Controller('metrics')
export class MetricsController {
  @Get()
  @Header('content-type', METRICS_REGISTRY.contentType)
  @Header('cache-control', 'no-store')
  metrics(): Promise<string> {
    return METRICS_REGISTRY.metrics();
  }
}
