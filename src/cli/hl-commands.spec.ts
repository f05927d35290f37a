import { INestApplicationContext } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { JobRegistry } from '../jobs/job-registry';
import { JobRunner } from '../jobs/job-runner';
import { JobOutcome } from '../jobs/job.types';
import { HlAddressesRepository } from '../modules/hl/jobs/hl-addresses.repository';
import { EXIT_FAILED, EXIT_OK, runCli } from './cli-runner';
import type { CommandArgs } from './commands';
import { HL_COMMANDS } from './hl-commands';

const args = (values: Partial<CommandArgs>) => values as CommandArgs;

/** An application context whose only provider is a fake address repository. */
function appWith(upsertAddresses: jest.Mock): INestApplicationContext {
  return {
    get: (token: unknown) => {
      if (token !== HlAddressesRepository) throw new Error(`unexpected provider ${String(token)}`);
      return { upsertAddresses };
    },
  } as unknown as INestApplicationContext;
}

describe('address:add', () => {
  const sut = HL_COMMANDS['address:add'];

  it.each(['0x1234', 'not-an-address', '0x' + 'g'.repeat(40)])('names the address option for %j, and writes nothing', async (address) => {
    const upsertAddresses = jest.fn();
    const run = sut.run(appWith(upsertAddresses), args({ address }));
    await expect(run).rejects.toThrow(AppError);
    await expect(run).rejects.toThrow(/^address: must be a 42-character 0x-prefixed address$/);
    expect(upsertAddresses).not.toHaveBeenCalled();
  });

  it('adds a valid address lowercased, with its tags', async () => {
    const upsertAddresses = jest.fn(async () => undefined);
    const address = '0x' + 'AB'.repeat(20);

    const output = await sut.run(appWith(upsertAddresses), args({ address, tags: 'whale, desk-a' }));

    expect(upsertAddresses).toHaveBeenCalledWith({ addresses: [address.toLowerCase()], source: 'operator', tags: ['whale', 'desk-a'] });
    expect(output.json).toEqual({ address: address.toLowerCase(), tags: ['whale', 'desk-a'] });
  });
});

describe('job:run', () => {
  const job = { name: 'economy.builder-fills' };

  /** Runs `job:run` through the CLI against a runner whose one run ends with `outcome`. */
  async function jobRun(outcome: JobOutcome, flags: string[] = []) {
    const out: string[] = [];
    const app = {
      get: (token: unknown) => {
        if (token === JobRegistry) return { get: (name: string) => (name === job.name ? job : undefined), list: () => [job] };
        if (token === JobRunner) return { run: async () => ({ name: job.name, status: 'ok', startedAt: new Date(0), finishedAt: new Date(40), outcome }) };
        throw new Error(`unexpected provider ${String(token)}`);
      },
    } as unknown as INestApplicationContext;
    const code = await runCli(['job:run', job.name, ...flags], {
      io: { stdout: (text) => out.push(text), stderr: (text) => out.push(text) },
      withApp: (work) => work(app),
    });
    return { code, out: out.join('\n') };
  }

  it('exits 0 for a run without failures', async () => {
    await expect(jobRun({ rows: 3, failures: 0 })).resolves.toEqual({ code: EXIT_OK, out: 'economy.builder-fills ok in 40 ms: 3 rows' });
  });

  it('exits non-zero for a run with failures, naming them', async () => {
    const failed = ['builder fills 0xab 2026-11-25: timed out', 'fills of 0xcd: HTTP 500'];

    const run = await jobRun({ rows: 0, failures: 5, failed });

    expect(run.code).toBe(EXIT_FAILED);
    expect(run.out.split('\n')).toEqual([
      'economy.builder-fills finished with 5 failures in 40 ms: 0 rows',
      `  failed: ${failed[0]}`,
      `  failed: ${failed[1]}`,
      '  and 3 more (each is a warning in the log)',
    ]);
  });

  it('answers ok: false under --json for a run with failures, with the job and what failed', async () => {
    const run = await jobRun({ rows: 0, failures: 1, failed: ['fills of 0xcd: HTTP 500'] }, ['--json']);

    expect(run.code).toBe(EXIT_FAILED);
    expect(JSON.parse(run.out)).toMatchObject({ ok: false, job: { status: 'ok', failures: 1, failed: ['fills of 0xcd: HTTP 500'] } });
  });
});
