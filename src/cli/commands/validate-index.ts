/**
 * `skillpress validate-index`: the seed's validate_indexing. Per skill, the files in
 * Elasticsearch (count, paths, sha256, content) must equal the folder's; exit 1 on any difference.
 */
import { loadCatalog } from '../../load/index.ts';
import {
  assertCatalog,
  assertReachable,
  createClient,
  redactUrl,
  validateIndex,
  type IndexCheck,
} from '../../emit/elasticsearch/index.ts';
import { EXIT, parse, type Command } from '../args.ts';
import { configAndSkillsFolder, folderList } from './validate.ts';
import { invalidSkills } from '../../load/invalid.ts';
import { skillsLoadOptions } from '../../config/load.ts';
import { ES_OPTIONS, ES_USAGE, esConnection, esNames } from './ingest.ts';

export const validateIndexCommand: Command = {
  usage: `skillpress validate-index [dir | --skills dir=skills] ${ES_USAGE} [--config file|dir] [--quiet] [--json]`,
  async run(argv) {
    const { values, positionals } = parse(argv, {
      ...ES_OPTIONS,
      skills: { type: 'string' },
      config: { type: 'string' },
      quiet: { type: 'boolean' },
      json: { type: 'boolean' },
    });
    // The cluster's URL and the index names first: a typo there must not wait for the skills to load.
    const connection = esConnection(values);
    const names = esNames(values);
    const { config, root } = await configAndSkillsFolder(values, positionals);
    const catalog = await loadCatalog(root, skillsLoadOptions(config));
    // What was published: the valid skills. The invalid ones are named, not counted as missing.
    const invalid = invalidSkills(catalog);
    const client = createClient(connection);
    try {
      await assertReachable(client, connection);
      await assertCatalog(client, connection, names);
      const checks = await validateIndex(client, catalog.skills, { names });
      const bad = checks.filter((c) => c.differences.length > 0);
      if (values.json) {
        process.stdout.write(
          JSON.stringify(
            { url: redactUrl(connection.url), ok: bad.length === 0, skills: checks, not_published: invalid },
            null,
            2,
          ) + '\n',
        );
      } else {
        const lines = checkLines(checks, values.quiet === true);
        lines.push(`${checks.length - bad.length} of ${checks.length} skill(s) match ${redactUrl(connection.url)}`);
        if (invalid.length > 0)
          lines.push(
            `${invalid.length} invalid skill folder(s) not published, so not expected in the index:${folderList(invalid)}`,
          );
        process.stdout.write(lines.join('\n') + '\n');
      }
      return bad.length > 0 ? EXIT.invalid : EXIT.ok;
    } finally {
      await client.close();
    }
  },
};

/**
 * The table: one row per skill and one line per difference. `quiet` keeps only the skills that
 * differ (in a catalog of a thousand skills, a few differences scroll out of sight among the `ok`
 * rows); the tally after the table still counts every skill.
 */
function checkLines(checks: readonly IndexCheck[], quiet: boolean): string[] {
  const shown = quiet ? checks.filter((c) => c.differences.length > 0) : checks;
  if (shown.length === 0) return [];
  const width = Math.max(5, ...shown.map((c) => c.skill.length));
  const lines = [`${'skill'.padEnd(width)}  folder  index  status`];
  for (const c of shown) {
    lines.push(
      `${c.skill.padEnd(width)}  ${String(c.folderFiles).padStart(6)}  ${String(c.indexFiles).padStart(5)}  ${c.differences.length === 0 ? 'ok' : 'DIFFERENT'}`,
    );
    for (const d of c.differences) lines.push(`${' '.repeat(width)}    - ${d}`);
  }
  return lines;
}
