import { Module, OnModuleInit } from '@nestjs/common';
import { collectProcessMetrics } from '../../infra/metrics/process-metrics';
import { MetricsController } from './metrics.controller';

/** GET /metrics; AppModule mounts it only when METRICS_ENABLED, so off the route answers like any unknown one. */
@Module({ controllers: [MetricsController] })
export class MetricsModule implements OnModuleInit {
  onModuleInit(): void {
    collectProcessMetrics();
  }
}
