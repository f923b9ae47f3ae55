/** skillpress command line: `skillpress <command> [options]`. */
import { EXIT, UsageError, type Command } from './args.ts';

interface CommandEntry {
  name: string;
  summary: string;
  /** Commands load lazily so `skillpress mcp` starts without loading Astro or Elasticsearch. */
  load: () => Promise<Command>;
}

/**
 * Every command, in the order `--help` lists them. To add one: write
 * `src/cli/commands/<name>.ts` exporting a `Command`, and add an entry here.
 */
const COMMANDS: CommandEntry[] = [
  {
    name: 'validate',
    summary: 'check every skill against the Agent Skills specification',
    load: async () => (await import('./commands/validate.ts')).validate,
  },
  {
    name: 'check-tools',
    summary: "check the skills' tools against the MCP servers of mcp_servers",
    load: async () => (await import('./commands/check-tools.ts')).checkToolsCommand,
  },
  {
    name: 'enable',
    summary: 'publish a disabled skill again (removes it from skills.disabled)',
    load: async () => (await import('./commands/enable.ts')).enable,
  },
  {
    name: 'disable',
    summary: 'keep a skill out of the feed, the site and the MCP server (adds it to skills.disabled)',
    load: async () => (await import('./commands/enable.ts')).disable,
  },
  {
    name: 'build',
    summary: 'build the feeds, discovery index, archives and site into dist/',
    load: async () => (await import('./commands/build.ts')).build,
  },
  {
    name: 'dev',
    summary: 'build, serve on 127.0.0.1 and rebuild on every change, reloading open pages',
    load: async () => (await import('./commands/dev.ts')).dev,
  },
  {
    name: 'preview',
    summary: 'serve a built folder as a static host would',
    load: async () => (await import('./commands/preview.ts')).preview,
  },
  {
    name: 'ingest',
    summary: 'write every skill and file into Elasticsearch, switching the aliases atomically',
    load: async () => (await import('./commands/ingest.ts')).ingest,
  },
  {
    name: 'get',
    summary: 'read a skill back from Elasticsearch (JSON, or --out to rebuild its folder)',
    load: async () => (await import('./commands/get.ts')).get,
  },
  {
    name: 'validate-index',
    summary: 'check that Elasticsearch holds exactly the skills folder',
    load: async () => (await import('./commands/validate-index.ts')).validateIndexCommand,
  },
  {
    name: 'mcp',
    summary: 'serve a built feed (dir or URL) to agents over MCP on stdio',
    load: async () => (await import('./commands/mcp.ts')).mcp,
  },
  {
    name: 'install',
    summary: "copy one skill from a feed or .well-known/agent-skills site into an agent's skills folder",
    load: async () => (await import('./commands/install.ts')).install,
  },
];

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

export async function main(argv: string[]): Promise<number> {
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
    process.stderr.write(`skillpress: unknown command "${name}"\n\n${help()}\n`);
    return EXIT.usage;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`usage: ${command.usage}\n`);
    return EXIT.ok;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`skillpress ${name}: ${err.message}\nusage: ${command.usage}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`skillpress ${name}: ${(err as Error).message}\n`);
    if (process.env.SKILLPRESS_DEBUG) process.stderr.write(`${(err as Error).stack}\n`);
    return EXIT.invalid;
  }
}
