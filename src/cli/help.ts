/**
 * `skillpress <command> --help`: the usage line, then each option on a line of its own. An
 * option means the same in every command unless the command's own entry below says otherwise.
 */
import type { Command } from './args.ts';
import type { CommandEntry } from './command-list.ts';

/** The name and summary of a command, from the one list of commands. */
type Named = Pick<CommandEntry, 'name' | 'summary'>;

const OPTIONS: Record<string, string> = {
  skills: 'the skills folder (default: skills.root of the config, skills/)',
  out: 'the output folder (default dist)',
  config: 'skillpress.json, or the folder holding it (default: found from the skills folder up to the repository root)',
  previous: 'a previous build (folder or URL) for the change list (default: what is in --out)',
  base: 'the path the site is served under, e.g. /skills/ (default: site.base of the config)',
  strict: 'apply every rule of the specification as an error; Elasticsearch gets all skills or none',
  quiet: 'list the errors only (the summary still counts every warning)',
  'no-site': 'build the feeds and the discovery index only',
  json: 'print the result as JSON',
  port: 'port on 127.0.0.1 (default 4321; 0: any free port)',
  es: 'Elasticsearch URL (default: ELASTICSEARCH_URL, else http://127.0.0.1:9200)',
  'ca-file': 'CA certificate for an Elasticsearch with its own certificate authority',
  'index-prefix': 'prefix of the index aliases (<prefix>agent_skills, <prefix>agent_skill_files)',
  force: 'write new indexes even when Elasticsearch already holds this catalog',
  feed: 'the feed to serve: a build folder, its feed/v1 folder, or a published site or index URL',
  'page-size': 'entries per skills/list, resources/list and directory page (default 100)',
  poll: 'remote feeds: seconds between checks for a new index.json (default 300; 0: only at start)',
  'watch-ms': 'local feeds: milliseconds between checks for a rebuild (default 500)',
  'judge-timeout-ms': "how long best_skill waits for the client's model before its rule decides (default 20000)",
  'cache-dir': 'where remote feeds are cached',
  usage:
    'record loads and outcomes (opt-in) to this JSON Lines file (a folder: usage.jsonl in it) or Elasticsearch URL, and offer report_skill_outcome',
  'site-url': 'where the site will be published (https://org.github.io/repo/): its URL and base path',
  package: "what CI installs skillpress from, a git URL or tarball URL (default: this copy's git origin, if any)",
  'no-build': 'write the files without building',
  index: 'read the usage events from the Elasticsearch index (default agent_skill_usage)',
  'min-reports': 'outcome reports a skill needs before its success rate is shown (default 5)',
  'min-reporters': 'users who reported an outcome that a skill needs before its success rate is shown (default 1)',
};

/** Where an option means something else in one command. */
const COMMAND_OPTIONS: Record<string, Record<string, string>> = {
  preview: {
    out: 'the built folder to serve (default dist)',
    base: 'serve under this path instead of the one the build recorded',
  },
  get: { out: "rebuild the skill's folder here, byte-exact, instead of printing JSON" },
  mcp: {
    skills:
      'serve this skills folder, writable: adds create_skill and update_skill; the server builds it (into --feed, a local build folder of its own, or beside the skills folder) and rebuilds on every write',
    config:
      'skillpress.json, or the folder holding it: read for --skills (the folder the server builds) and --usage (its salt and index)',
  },
  init: { force: 'replace an existing skillpress.json and workflow' },
  new: {
    description: 'the description to write into SKILL.md (default: a placeholder to replace)',
    template: 'basic (a heading and a first step) or playbook (when it applies, Do / Check / Say steps, resolution)',
    folder:
      "a group folder of the skills folder to put it in (engineering/security, made when missing), checked as create_skill's folder",
  },
  ingest: { strict: 'apply every rule as an error, and write nothing while any skill is invalid' },
  'validate-index': { quiet: 'list only the skills that differ (the tally still counts every skill)' },
  validate: { strict: 'apply every rule of the specification as an error' },
  dev: { strict: 'apply every rule of the specification as an error' },
  'check-tools': {
    strict: 'exit 1 when a tool is missing or its server is unreachable',
    all: "list every use of an agent's built-in tools, not one line counting them",
  },
  usage: {
    feed: 'a build folder (or its feed/v1): events for skills it does not have are counted as unknown',
    out: 'also write the summary to this JSON file',
    es: 'read usage events from this Elasticsearch URL, with or instead of files (ELASTICSEARCH_URL is not read here)',
  },
  search: {
    feed: 'the feed to search: a build folder (default dist), its feed/v1 folder, or a published site or index URL',
    best: "best_skill's answer by its rule (the skill or none, and why), with the candidates it weighed",
    limit: 'how many skills to list (default 10, at most 100)',
    es: 'search this Elasticsearch (default URL: ELASTICSEARCH_URL) with the hybrid query instead of the feed',
  },
};

/** Each `--option` of a usage line with what it does, one line each. */
export function commandHelp(entry: Named, command: Command): string {
  // A command whose usage already explains its options line by line keeps it, under its summary.
  if (explainsOptions(command)) return `${entry.summary}\n\nusage: ${command.usage}\n`;
  const names = [...new Set([...command.usage.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]!))];
  const width = Math.max(0, ...names.map((n) => n.length + 2));
  const lines = names.map((n) => {
    const text = `${COMMAND_OPTIONS[entry.name]?.[n] ?? OPTIONS[n] ?? ''}${n === 'skills' && takesFolder(command) ? '; or give it as the argument' : ''}`;
    return `  ${`--${n}`.padEnd(width)}  ${text}`.trimEnd();
  });
  return [entry.summary, '', `usage: ${command.usage}`, ...(lines.length ? ['', 'options:', ...lines] : []), ''].join(
    '\n',
  );
}

/** Options a usage line names that have no description (a test keeps this empty). */
export function undocumentedOptions(entry: Named, command: Command): string[] {
  if (explainsOptions(command)) return [];
  return [...command.usage.matchAll(/--([a-z][a-z-]*)/g)]
    .map((m) => m[1]!)
    .filter((n) => !COMMAND_OPTIONS[entry.name]?.[n] && !OPTIONS[n]);
}

/** Whether the command takes the skills folder as its argument too (`[dir | --skills dir]`). */
const takesFolder = (command: Command): boolean => /\[dir \| --skills/.test(command.usage);

/** A usage text with lines of its own for its options (`  --to dir  …`), not only usage lines. */
const explainsOptions = (command: Command): boolean => /\n {2}--/.test(command.usage);
