import { Module } from '@nestjs/common';
import { SnapshotStore } from './snapshot-store';

/** The snapshot store shared by the jobs that publish snapshots and the endpoints that read them. */
@Module({
  providers: [SnapshotStore],
  exports: [SnapshotStore],
})
export class HlSnapshotModule {}
