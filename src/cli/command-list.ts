/**
 * Every command with its one-line summary: the one list `skillpress --help` prints, and the
 * README's and docs/cli.md's command tables repeat (test/docs/commands.test.ts holds them to it).
 */
import type { Command } from './args.ts';

export interface CommandEntry {
  name: string;
  summary: string;
  /** Commands load lazily so `skillpress mcp` starts without loading Astro or Elasticsearch. */
  load: () => Promise<Command>;
}

/**
 * In the order `--help` lists them. To add one: write `src/cli/commands/<name>.ts` exporting a
 * `Command`, add an entry here, and a row to the tables in README.md and docs/cli.md.
 */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'init',
    summary: 'set up a skills repository: skillpress.json, .gitignore lines, a GitHub Pages workflow; then build once',
    load: async () => (await import('./commands/init.ts')).init,
  },
  {
    name: 'validate',
    summary: 'check every skill against the Agent Skills specification',
    load: async () => (await import('./commands/validate.ts')).validate,
  },
  {
    name: 'check-tools',
    summary:
      'check every tool the skills reference against the MCP servers of mcp_servers (stdio or Streamable HTTP); without servers, list what the skills name and whether any of it needs a server',
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
    summary:
      'feeds, discovery index, archives and the site into dist/; ingests into Elasticsearch when ELASTICSEARCH_URL is set',
    load: async () => (await import('./commands/build.ts')).build,
  },
  {
    name: 'dev',
    summary:
      "build the feed, serve it on 127.0.0.1 with the site's pages rendered on request, and rebuild on every change to the skills or the config, reloading open pages",
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
    summary: 'read a skill back from Elasticsearch; --out rebuilds its folder byte-exact',
    load: async () => (await import('./commands/get.ts')).get,
  },
  {
    name: 'validate-index',
    summary: 'check that Elasticsearch holds exactly the skills folder',
    load: async () => (await import('./commands/validate-index.ts')).validateIndexCommand,
  },
  {
    name: 'mcp',
    summary: 'serve a built feed to agents over MCP on stdio',
    load: async () => (await import('./commands/mcp.ts')).mcp,
  },
  {
    name: 'install',
    summary: "copy one skill from a feed or .well-known/agent-skills site into an agent's skills folder",
    load: async () => (await import('./commands/install.ts')).install,
  },
  {
    name: 'search',
    summary:
      "what an agent gets for a request: the feed ranked as skills_search ranks it, best_skill's answer (--best), or Elasticsearch's hybrid query (--es)",
    load: async () => (await import('./commands/search.ts')).search,
  },
  {
    name: 'usage',
    summary: 'add usage events up per skill: uses, outcomes, success rate, rating; failing skills first',
    load: async () => (await import('./commands/usage.ts')).usage,
  },
  {
    name: 'new',
    summary: 'scaffold a skill folder with TODOs to fill in (validate --strict refuses them until then)',
    load: async () => (await import('./commands/author.ts')).newSkill,
  },
  {
    name: 'versions',
    summary: "a skill's recorded versions: version, date, digest, changes",
    load: async () => (await import('./commands/author.ts')).versions,
  },
  {
    name: 'rollback',
    summary: 'restore an earlier version of a skill as a new version',
    load: async () => (await import('./commands/author.ts')).rollback,
  },
];
