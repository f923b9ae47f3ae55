/**
 * `skillpress get` of a name the index does not hold suggests the nearest ones, as install and
 * view_skill do: one bounded query finds what nearNames over every id would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { loadCatalog } from '../../src/load/index.ts';
import { ingestCatalog } from '../../src/emit/elasticsearch/index.ts';
import { nearSkillIds } from '../../src/emit/elasticsearch/read.ts';
import { nearNames } from '../../src/lib/near-names.ts';
import {
  deleteIndexesWithPrefix,
  ES_URL,
  prefixedNames,
  removeDirs,
  runCli,
  skillMd,
  tempDir,
  testClient,
  uniquePrefix,
  writeSkill,
} from './helpers.ts';

const WORDS = ['pdf', 'sql', 'docs', 'image', 'audit', 'deploy', 'trino', 'excel', 'forms', 'tools', 'debug', 'report'];
/** Every pair of WORDS (132 names), so a word of a query is shared by many skills, near or not. */
const IDS = WORDS.flatMap((a) => WORDS.filter((b) => b !== a).map((b) => `${a}-${b}`)).concat(['expense-policy']);

describe.skipIf(!ES_URL)('get: an unknown skill id', () => {
  const prefix = uniquePrefix('getnear');
  const names = prefixedNames(prefix);
  let client: Client;
  let root: string;

  beforeAll(async () => {
    client = testClient();
    root = await tempDir('getnear');
    for (const id of IDS) await writeSkill(root, id, { 'SKILL.md': skillMd(id, `The ${id} skill.`) });
    await ingestCatalog(await loadCatalog(root), { client, names });
  });

  afterAll(async () => {
    await deleteIndexesWithPrefix(client, prefix);
    await client.close();
    await removeDirs(root);
  });

  it('prints the nearest ids ("did you mean"), or none when nothing is near; exit 1', async () => {
    const typo = await runCli(['get', 'pdftk', '--es', ES_URL, '--index-prefix', prefix]);
    expect(typo.code).toBe(1);
    // As nearNames ranks them (shared word, then edit distance: pdf-sql 4, pdf-docs and pdf-tools 5).
    expect(typo.stderr).toBe(
      `skillpress get: no skill "pdftk" in ${names.skills} (did you mean "pdf-sql", "pdf-docs" or "pdf-tools"?)\n`,
    );
    const far = await runCli(['get', 'zzzz-qqqq', '--es', ES_URL, '--index-prefix', prefix]);
    expect(far.code).toBe(1);
    expect(far.stderr).toBe(`skillpress get: no skill "zzzz-qqqq" in ${names.skills}\n`);
  });

  it.each(['pdftk', 'trino-debgu', 'expense-polcy', 'policy', 'excel', 'sql-audti', 'deploy-tool', 'imag-report'])(
    'the query finds what nearNames over every id would: %s',
    async (query) => {
      expect(await nearSkillIds(client, query, { names })).toEqual(nearNames(query, IDS));
    },
  );
});
