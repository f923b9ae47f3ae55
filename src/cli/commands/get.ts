/**
 * `skillpress get <id>`: one skill read back from Elasticsearch alone — as JSON (the seed's
 * get_skill_by_id shape), or with `--out` as the skill folder rebuilt byte-exact.
 */
import {
  assertCatalog,
  assertReachable,
  createClient,
  getSkillById,
  SkillNotFoundError,
  writeSkillFolder,
} from '../../emit/elasticsearch/index.ts';
import { nearSkillIds } from '../../emit/elasticsearch/read.ts';
import { didYouMean } from '../../lib/near-names.ts';
import { EXIT, parse, UsageError, type Command } from '../args.ts';
import { ES_OPTIONS, ES_USAGE, esConnection, esNames } from './ingest.ts';

export const get: Command = {
  usage: `skillpress get <skill-id> [--out dir] ${ES_USAGE}`,
  async run(argv) {
    const { values, positionals } = parse(argv, { ...ES_OPTIONS, out: { type: 'string' } });
    const id = positionals[0];
    if (!id) throw new UsageError('missing <skill-id>');
    const connection = esConnection(values);
    const names = esNames(values);
    const client = createClient(connection);
    try {
      await assertReachable(client, connection);
      await assertCatalog(client, connection, names);
      let skill;
      try {
        skill = await getSkillById(client, id, { names });
      } catch (err) {
        if (!(err instanceof SkillNotFoundError)) throw err;
        // The suggestion is extra: a query that fails still leaves "no skill" said.
        const near = await nearSkillIds(client, id, { names }).catch(() => []);
        process.stderr.write(`skillpress get: no skill "${id}" in ${names.skills}${didYouMean(id, near)}\n`);
        return EXIT.invalid;
      }
      if (!values.out) {
        // The 256 numbers of the purpose vector say nothing to a reader of the JSON.
        process.stdout.write(
          JSON.stringify(skill, (key, value) => (key === 'purpose_vector' ? undefined : value), 2) + '\n',
        );
        return EXIT.ok;
      }
      const result = await writeSkillFolder(skill.file_entries, values.out);
      for (const s of result.skipped)
        process.stderr.write(`warning: ${s.path} not restored: the index holds no content (${s.reason})\n`);
      process.stdout.write(`wrote ${result.written.length} file(s) of ${id} to ${values.out}\n`);
      return EXIT.ok;
    } finally {
      await client.close();
    }
  },
};
