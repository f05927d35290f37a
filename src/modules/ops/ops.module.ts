import { Module } from '@nestjs/common';
import { OpsController } from './ops.controller';
import { OpsTokenService } from './ops-token.service';

/** GET /ops/jobs: job:status of a server that holds the embedded database (the CLI cannot open it then). */
@Module({
  controllers: [OpsController],
  providers: [OpsTokenService],
})
export class OpsModule {}
