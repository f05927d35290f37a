import { Injectable } from '@nestjs/common';
import { JobDefinition } from './job.types';

/** Areas register their jobs here at module init; the scheduler and the ops CLI find them by name. */
@Injectable()
export class JobRegistry {
  private readonly jobs = new Map<string, JobDefinition>();

  register(job: JobDefinition): void {
    if (this.jobs.has(job.name)) throw new Error(`job ${job.name} registered twice`);
    this.jobs.set(job.name, job);
  }

  get(name: string): JobDefinition | undefined {
    return this.jobs.get(name);
  }

  list(): JobDefinition[] {
    return [...this.jobs.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
