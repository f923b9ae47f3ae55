/** Argument parsing shared by the commands (node:util parseArgs, with usage errors → exit 2). */
import { stat } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';

import { NotFoundError, UsageError } from '../lib/errors.ts';

export { UsageError };

export const EXIT = { ok: 0, invalid: 1, usage: 2 } as const;

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: T,
  maxPositionals = 1,
) {
  let result;
  try {
    result = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(parseErrorMessage(err as Error & { code?: string }, options));
  }
  if (result.positionals.length > maxPositionals) {
    throw new UsageError(`unexpected argument "${result.positionals[maxPositionals]}"`);
  }
  return result;
}

/** node's message for an unknown option goes on about positionals starting with '-': name the option and the ones there are. */
function parseErrorMessage(err: Error & { code?: string }, options: NonNullable<ParseArgsConfig['options']>): string {
  const unknown = err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'([^']+)'/.exec(err.message)?.[1] : undefined;
  if (!unknown) return err.message;
  const known = Object.keys(options).map((name) => `--${name}`);
  return `unknown option ${unknown}${known.length ? ` (options: ${known.join(', ')})` : ''}`;
}

/** A command's options and how it runs; its name and summary are listed in command-list.ts. */
export interface Command {
  usage: string;
  /** Returns the exit code. Throw UsageError for bad arguments. */
  run(argv: string[]): Promise<number>;
}

/**
 * The skills folder a command was given: `--skills dir` or the folder as its one argument
 * (`skillpress build ./skills`, as `validate` takes it); undefined for neither. Both, naming
 * different folders, is a usage error rather than a silent choice.
 */
export function skillsFolderArgument(option: string | undefined, positionals: readonly string[]): string | undefined {
  const [argument] = positionals;
  if (option !== undefined && argument !== undefined && option !== argument) {
    throw new UsageError(`two skills folders: --skills ${option} and ${argument}; give one`);
  }
  return option ?? argument;
}

/** The skills folder a command reads, refused up front when it is not a folder (a typo must not read as "no skills"). */
export async function requireSkillsFolder(root: string, given = 'skills folder'): Promise<string> {
  const st = await stat(root).catch(() => undefined);
  if (!st?.isDirectory())
    throw new UsageError(`${given} ${root}: not a folder; give the folder that holds your skills`);
  return root;
}

/**
 * A local `--feed` folder that holds no feed is a usage error (exit 2), as a missing skills
 * folder is; a feed that is there but broken, or a URL that fails, stays exit 1.
 */
export function feedArgumentError(err: unknown, location: string, note = ''): unknown {
  if (err instanceof NotFoundError && !/^https?:\/\//i.test(location))
    return new UsageError(`--feed ${location}${note}: ${err.message}`, { cause: err });
  return err;
}
