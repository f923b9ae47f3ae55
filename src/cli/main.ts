/** skillpress command line: `skillpress <command> [options]`. */
import { EXIT, UsageError } from './args.ts';
import { COMMANDS } from './command-list.ts';
import { errorMessage } from '../lib/errors.ts';
import { didYouMean } from '../lib/near-names.ts';

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'skillpress: Agent Skills → Elasticsearch, feeds, a static catalog site and an MCP server',
    '',
    'usage: skillpress <command> [options]',
    '',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run `skillpress <command> --help` for a command's options.",
  ].join('\n');
}

/**
 * A reader that stops early (`skillpress get id | head`) closes the pipe: that is the reader's
 * choice, not an error, so the command ends quietly instead of dying with an EPIPE stack trace.
 */
function exitQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(0);
      throw err;
    });
  }
}

export async function main(argv: string[]): Promise<number> {
  exitQuietlyOnClosedPipe();
  // `skillpress help build` is `skillpress build --help`.
  if (argv[0] === 'help' && argv[1] !== undefined) argv = [argv[1], '--help'];
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(help() + '\n');
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === '--version' || name === '-v') {
    const { createRequire } = await import('node:module');
    process.stdout.write(createRequire(import.meta.url)('../../package.json').version + '\n');
    return EXIT.ok;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    const near = didYouMean(
      name,
      COMMANDS.map((c) => c.name),
    );
    process.stderr.write(`skillpress: unknown command "${name}"${near}\n\n${help()}\n`);
    return EXIT.usage;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    const { commandHelp } = await import('./help.ts');
    process.stdout.write(commandHelp(entry, command));
    return EXIT.ok;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`skillpress ${name}: ${err.message}\nusage: ${command.usage}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`skillpress ${name}: ${errorMessage(err)}\n`);
    if (process.env.SKILLPRESS_DEBUG) process.stderr.write(`${err instanceof Error ? err.stack : errorMessage(err)}\n`);
    return EXIT.invalid;
  }
}
