import { parseArgs } from 'node:util';
import { CliCommand, CommandArgs, COMMANDS, OPTION_VALUES, OptionName } from './commands';

export const CLI_INVOCATION = 'npm run cli --';

/** A mistake in the command line itself (as opposed to a rule the service refused). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type Invocation =
  { kind: 'help'; json: boolean; command?: string } | { kind: 'run'; json: boolean; name: string; command: CliCommand; args: CommandArgs };

const GLOBAL_FLAGS = new Set(['--json', '--help', '-h']);

/** `<command> [--option value]... [--json]`; global flags may also come before the command. */
export function parseCommandLine(argv: readonly string[]): Invocation {
  const json = argv.includes('--json');
  const nameIndex = argv.findIndex((arg) => !GLOBAL_FLAGS.has(arg));
  const name = nameIndex === -1 ? undefined : argv[nameIndex];
  if (name === undefined || name === 'help') return { kind: 'help', json };
  if (name.startsWith('-')) throw new UsageError(`expected a command before ${name}`);
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(`unknown command "${name}"`);
  const rest = argv.filter((_, i) => i !== nameIndex);
  if (rest.includes('--help') || rest.includes('-h')) return { kind: 'help', json, command: name };

  const declared = [...command.options, ...(command.optional ?? [])];
  const options = Object.fromEntries(declared.map((option) => [option, { type: 'string' as const }]));
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      options: { ...options, json: { type: 'boolean' } },
      strict: true,
      allowPositionals: Boolean(command.positional),
    }));
  } catch (error) {
    throw new UsageError(`${name}: ${describeParseError(error as Error & { code?: string })}; usage: ${commandUsage(name)}`);
  }
  const missing = command.options.filter((option) => typeof values[option] !== 'string');
  if (missing.length > 0) {
    throw new UsageError(`${name}: missing ${missing.map((o) => `--${o}`).join(', ')}; usage: ${commandUsage(name)}`);
  }
  if (command.positional && positionals.length !== 1) {
    throw new UsageError(`${name}: expected exactly one ${command.positional}; usage: ${commandUsage(name)}`);
  }
  const args = { ...values, ...(command.positional ? { positional: positionals[0] } : {}) } as CommandArgs;
  return { kind: 'run', json, name, command, args };
}

export function commandUsage(name: string): string {
  const command = COMMANDS[name];
  const required = command.options.map((option: OptionName) => `--${option} ${OPTION_VALUES[option]}`);
  const optional = (command.optional ?? []).map((option: OptionName) => `[--${option} ${OPTION_VALUES[option]}]`);
  const positional = command.positional ? [`<${command.positional}>`] : [];
  return [CLI_INVOCATION, name, ...positional, ...required, ...optional, '[--json]'].join(' ');
}

export function usageText(): string {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map((name) => name.length));
  return [
    `Usage: ${CLI_INVOCATION} <command> [options] [--json]`,
    '',
    'Commands:',
    ...names.map((name) => `  ${name.padEnd(width)}  ${COMMANDS[name].summary}`),
    '',
    'Options of each command:',
    ...names.map((name) => `  ${commandUsage(name).slice(CLI_INVOCATION.length + 1)}`),
    '',
    '--json prints exactly one JSON object on stdout: {"ok":true,...} or {"ok":false,"error":{"code","message"}}.',
    'Exit codes: 0 done, 1 refused or failed, 2 bad command line.',
    'Without DATABASE_URL the CLI opens the embedded database, which needs the server stopped.',
  ].join('\n');
}

/** Node's messages are long and suggest '--' tricks; say what is wrong in a few words. */
function describeParseError(error: Error & { code?: string }): string {
  const quoted = /'(-[^' ]+)/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${quoted ?? ''}`.trim();
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${/'([^']*)'/.exec(error.message)?.[1] ?? ''}`.trim();
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (error.message.includes('ambiguous')) return `${quoted} needs a value; write ${quoted}=<value> for one that starts with "-"`;
      if (error.message.includes('does not take an argument')) return `${quoted} takes no value`;
      return `${quoted} needs a value`;
    default:
      return error.message;
  }
}
