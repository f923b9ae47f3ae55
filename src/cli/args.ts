/** Argument parsing shared by the commands (node:util parseArgs, with usage errors → exit 2). */
import { parseArgs, type ParseArgsConfig } from 'node:util';

import { UsageError } from '../lib/errors.ts';

export { UsageError };

export const EXIT = { ok: 0, invalid: 1, usage: 2 } as const;

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, maxPositionals = 1) {
  let result;
  try {
    result = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (result.positionals.length > maxPositionals) {
    throw new UsageError(`unexpected argument "${result.positionals[maxPositionals]}"`);
  }
  return result;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** Returns the exit code. Throw UsageError for bad arguments. */
  run(argv: string[]): Promise<number>;
}
