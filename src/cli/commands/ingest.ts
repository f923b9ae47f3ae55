/**
 * `skillpress ingest`: skills/ → Elasticsearch (agent_skills + agent_skill_files), switched in
 * atomically. Connection from flags or the environment; secrets are never printed.
 */
import { loadLocalCatalog } from '../../local-catalog.ts';
import {
  connectionFromEnv,
  indexNames,
  ingestWithProgress,
  IngestError,
  redactUrl,
  type ConnectionOptions,
  type IndexNames,
} from '../../emit/elasticsearch/index.ts';
import { EXIT, parse, UsageError, type Command } from '../args.ts';
import { sourceDateEpoch } from '../../config/load.ts';
import { configAndSkillsFolder, folderList, problemLines } from './validate.ts';
import { invalidSkills } from '../../load/invalid.ts';

/** Options every Elasticsearch command takes. */
export const ES_OPTIONS = {
  es: { type: 'string' },
  'ca-file': { type: 'string' },
  'index-prefix': { type: 'string' },
} as const;

export const ES_USAGE = '[--es URL] [--ca-file path] [--index-prefix p]';

export function esConnection(values: { es?: string; 'ca-file'?: string }): ConnectionOptions {
  const connection = connectionFromEnv({ url: values.es, caFile: values['ca-file'] }, process.env);
  return { ...connection, url: httpUrl(connection.url, values.es !== undefined ? '--es' : 'ELASTICSEARCH_URL') };
}

/** `url` when it is an http(s) URL; else a usage error naming where it came from (`127.0.0.1:9200` lacks its scheme). */
export function httpUrl(url: string, from: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed && /^https?:$/.test(parsed.protocol) && parsed.hostname) return url;
  const guess = /^[\w.-]+(:\d+)?(\/|$)/.test(url) ? ` (did you mean http://${url}?)` : '';
  throw new UsageError(`${from} ${url}: not an http(s) URL${guess}`);
}

/** `--index-prefix p` reads and writes `p` + agent_skills / agent_skill_files. */
export function esNames(values: { 'index-prefix'?: string }): IndexNames {
  const names = indexNames();
  const prefix = checkedPrefix(values['index-prefix'] ?? '');
  return { skills: prefix + names.skills, files: prefix + names.files };
}

/**
 * A prefix that makes valid index names (Elasticsearch's rules: lowercase; none of \ / * ? " < > |
 * , # : or a space; not starting with -, _ or +), checked before anything is loaded or sent.
 */
function checkedPrefix(prefix: string): string {
  const wrong = PREFIX_RULES.find(([refused]) => refused.test(prefix))?.[1];
  if (wrong) throw new UsageError(`--index-prefix ${prefix}: ${wrong}, which Elasticsearch refuses in an index name`);
  return prefix;
}

const PREFIX_RULES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\p{Lu}/u, 'has capital letters'],
  [/[\\/*?"<>|,#: ]/, 'holds a character index names cannot (\\ / * ? " < > | , # : or a space)'],
  [/^[-_+]/, 'starts with -, _ or +'],
];

export const ingest: Command = {
  usage: `skillpress ingest [dir | --skills dir=skills] ${ES_USAGE} [--config file|dir] [--strict] [--quiet] [--force] [--json]`,
  async run(argv) {
    const { values, positionals } = parse(argv, {
      ...ES_OPTIONS,
      skills: { type: 'string' },
      config: { type: 'string' },
      strict: { type: 'boolean' },
      quiet: { type: 'boolean' },
      force: { type: 'boolean' },
      json: { type: 'boolean' },
    });
    // The cluster's URL and the index names first: a typo there must not wait for the skills to load.
    const connection = esConnection(values);
    const names = esNames(values);
    const { config, root } = await configAndSkillsFolder(values, positionals);
    // Loaded and dated as `skillpress build` does, so each writes what the other would (no churn).
    // A disabled skill stays in Elasticsearch, marked is_enabled: false, for internal readers.
    const { catalog } = await loadLocalCatalog(root, config, {
      mode: values.strict ? 'strict' : 'lenient',
      sourceDateEpoch: sourceDateEpoch(process.env),
      log: (line) => process.stderr.write(`${line}\n`),
    });
    for (const line of problemLines(catalog.problems, root, values.quiet)) process.stderr.write(`${line}\n`);
    const invalid = invalidSkills(catalog);
    if (invalid.length > 0 && values.strict) {
      // All or nothing: the index keeps the previous catalog whole until every skill is valid.
      process.stderr.write(
        `skillpress ingest: ${invalid.length} invalid skill(s) in ${root} and --strict; nothing was written to Elasticsearch\n`,
      );
      return EXIT.invalid;
    }
    // As the feed: the valid skills are written, the invalid ones (reported above) left out.
    if (invalid.length > 0)
      process.stderr.write(`skillpress ingest: ${invalid.length} invalid skill(s) left out:${folderList(invalid)}\n`);

    const where = redactUrl(connection.url);
    try {
      const result = await ingestWithProgress(catalog, {
        connection,
        names,
        force: values.force,
        log: (line) => process.stderr.write(`${line}\n`),
      });
      if (values.json) {
        process.stdout.write(JSON.stringify({ url: where, ...result, not_ingested: invalid }, null, 2) + '\n');
      } else if (result.changed) {
        process.stdout.write(
          `ingested ${result.skills} skill(s), ${result.files} file(s) into ${where} (${names.skills} → ${result.indexes.skills}, ${names.files} → ${result.indexes.files})\n`,
        );
      } else {
        process.stdout.write(
          `${where} already holds these ${result.skills} skill(s) and ${result.files} file(s); nothing changed\n`,
        );
      }
      return invalid.length > 0 ? EXIT.invalid : EXIT.ok;
    } catch (err) {
      if (!(err instanceof IngestError)) throw err;
      for (const f of err.failures)
        process.stderr.write(`  ${f.index}/${f.id}: ${f.status ? `HTTP ${f.status} ` : ''}${f.error}\n`);
      process.stderr.write(`skillpress ingest: ${err.message} (${where})\n`);
      return EXIT.invalid;
    }
  },
};
