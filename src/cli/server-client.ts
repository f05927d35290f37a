import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-code';
import type { EmbeddedServerEndpoint } from '../infra/database/embedded-lock';
import type { JobStatusView } from '../modules/ops/job-status';
import { OPS_TOKEN_HEADER } from '../modules/ops/ops.controller';

/** A server on this machine answers at once; past this it is hung, and waiting would not help. */
const SERVER_TIMEOUT_MS = 10_000;

/** GET /ops/jobs of the server that holds the embedded database, with the token it left in the lock file. */
export async function fetchServerJobStatus(server: EmbeddedServerEndpoint): Promise<JobStatusView[]> {
  const host = server.host.includes(':') ? `[${server.host}]` : server.host;
  const url = `http://${host}:${server.port}/ops/jobs`;
  let response: Response;
  try {
    response = await fetch(url, { headers: { [OPS_TOKEN_HEADER]: server.opsToken }, signal: AbortSignal.timeout(SERVER_TIMEOUT_MS) });
  } catch (error) {
    throw new AppError(ErrorCode.SERVICE_UNAVAILABLE, `the server holding the embedded database did not answer at ${url}: ${(error as Error).message}`);
  }
  const body = (await response.json().catch(() => null)) as { data?: { jobs?: unknown } } | null;
  const jobs = body?.data?.jobs;
  if (!response.ok || !Array.isArray(jobs)) {
    throw new AppError(ErrorCode.SERVICE_UNAVAILABLE, `the server holding the embedded database refused job status (HTTP ${response.status})`);
  }
  return jobs as JobStatusView[];
}
