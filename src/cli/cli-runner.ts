import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-code';
import { ProviderDisabledError } from '../providers/kit/provider-disabled.error';
import { UpstreamError } from '../providers/kit/upstream.error';
import { EmbeddedLockError } from '../infra/database/embedded-lock';
import { INestApplicationContext } from '@nestjs/common';
import { CLI_INVOCATION, commandUsage, parseCommandLine, UsageError, usageText } from './cli-args';
import { COMMANDS } from './commands';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Where the CLI writes; each call is one whole message (the writer adds the newline). */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Opens the application context for one command and closes whatever it opened afterwards. */
export type WithApp = <T>(work: (app: INestApplicationContext) => Promise<T>) => Promise<T>;

export interface CliDeps {
  io: CliIo;
  withApp: WithApp;
  /** Print stack traces of unexpected errors. */
  debug?: boolean;
}

/** Runs one command line and returns the exit code; never throws. */
export async function runCli(argv: readonly string[], { io, withApp, debug = false }: CliDeps): Promise<number> {
  const json = argv.includes('--json');
  try {
    const invocation = parseCommandLine(argv);
    if (invocation.kind === 'help') {
      printHelp(io, invocation);
      return EXIT_OK;
    }
    const { command, args } = invocation;
    const output = await withApp((app) => command.run(app, args)).catch((error: unknown) => {
      // PGlite is single-process: while a server holds the data folder, a read-only command asks that server.
      if (error instanceof EmbeddedLockError && error.server && command.runOnServer) return command.runOnServer(error.server, args);
      throw error;
    });
    const failed = output.failed === true;
    io.stdout(json ? JSON.stringify({ ok: !failed, ...output.json }) : output.text.join('\n'));
    return failed ? EXIT_FAILED : EXIT_OK;
  } catch (error) {
    const failure = describeFailure(error);
    const unexpected = failure.code === ErrorCode.INTERNAL_ERROR;
    const hint = unexpected && !debug ? 'set DEBUG=1 for the stack trace' : failure.hint;
    io.stderr(`error: ${failure.message}${hint ? `\n${hint}` : ''}`);
    if (debug && unexpected && error instanceof Error && error.stack) io.stderr(error.stack);
    if (json) io.stdout(JSON.stringify({ ok: false, error: { code: failure.code, message: failure.message } }));
    return failure.exitCode;
  }
}

interface Failure {
  code: string;
  message: string;
  exitCode: number;
  hint?: string;
}

function describeFailure(error: unknown): Failure {
  if (error instanceof UsageError) {
    return { code: 'USAGE_ERROR', message: error.message, exitCode: EXIT_USAGE, hint: `run "${CLI_INVOCATION} --help" for the commands` };
  }
  if (error instanceof AppError) return { code: error.code, message: error.message, exitCode: EXIT_FAILED };
  if (error instanceof EmbeddedLockError) return { code: ErrorCode.SERVICE_UNAVAILABLE, message: error.message, exitCode: EXIT_FAILED };
  // An operator may see the upstream's own words: this is their terminal, not an API answer.
  if (error instanceof UpstreamError || error instanceof ProviderDisabledError)
    return { code: ErrorCode.SERVICE_UNAVAILABLE, message: error.message, exitCode: EXIT_FAILED };
  const message = error instanceof Error ? error.message : String(error);
  return { code: ErrorCode.INTERNAL_ERROR, message: message || 'unexpected error', exitCode: EXIT_FAILED };
}

function printHelp(io: CliIo, { json, command }: { json: boolean; command?: string }): void {
  if (!json) {
    io.stdout(command ? `Usage: ${commandUsage(command)}\n\n${COMMANDS[command].summary}` : usageText());
    return;
  }
  const names = command ? [command] : Object.keys(COMMANDS);
  const commands = names.map((name) => ({ name, summary: COMMANDS[name].summary, usage: commandUsage(name) }));
  io.stdout(JSON.stringify({ ok: true, commands }));
}
