/**
 * validateIndex: the seed's `validate_indexing` — does Elasticsearch hold exactly the folder?
 * Per skill: the same file paths, each with the folder's sha256, content that hashes to the
 * sha256 stored with it (not edited in the index), no empty content for a non-empty file; and no
 * skill in the index that the folder lacks.
 */
import type { Client } from '@elastic/elasticsearch';
import type { Skill } from '../../model/skill.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { pMap } from '../../lib/p-map.ts';
import { indexNames, type IndexNames } from './definitions.ts';
import { getSkillFiles, storedBytes } from './read.ts';
import type { FileDocument } from './documents.ts';

export interface IndexCheck {
  skill: string;
  folderFiles: number;
  indexFiles: number;
  /** Empty when the index matches the folder. */
  differences: string[];
}

/**
 * Compare what Elasticsearch holds for each of `skills` with the skills themselves, file by file
 * (paths, sizes, sha256): one check per skill, `differences` empty when they match.
 *
 * @example
 * ```ts
 * import { elasticsearchClient, loadCatalog, validateIndex } from 'skillpress';
 * const client = await elasticsearchClient();
 * const checks = await validateIndex(client, (await loadCatalog('skills')).skills);
 * for (const c of checks.filter((c) => c.differences.length > 0)) console.log(c.skill, c.differences);
 * await client.close();
 * ```
 */
export async function validateIndex(
  client: Client,
  skills: readonly Skill[],
  options: { names?: Partial<IndexNames> } = {},
): Promise<IndexCheck[]> {
  const names = indexNames(options.names);
  const indexed = await indexedSkillIds(client, names.skills);
  const withFiles = await indexedSkillIds(client, names.files);
  const checks = await pMap(
    skills,
    async (skill): Promise<IndexCheck> => {
      const docs = await getSkillFiles(client, skill.id, { names });
      const differences = compareFiles(skill, docs);
      if (!indexed.has(skill.id)) differences.unshift(`no metadata document in ${names.skills}`);
      return { skill: skill.id, folderFiles: skill.files.length, indexFiles: docs.length, differences };
    },
    4,
  );
  const inFolder = new Set(skills.map((s) => s.id));
  for (const id of [...new Set([...indexed, ...withFiles])].sort()) {
    if (inFolder.has(id)) continue;
    const docs = await getSkillFiles(client, id, { names });
    checks.push({
      skill: id,
      folderFiles: 0,
      indexFiles: docs.length,
      differences: ['in the index but not in the folder'],
    });
  }
  return checks.sort((a, b) => (a.skill < b.skill ? -1 : a.skill > b.skill ? 1 : 0));
}

function compareFiles(skill: Skill, docs: readonly FileDocument[]): string[] {
  const differences: string[] = [];
  const byPath = new Map(docs.map((d) => [d.file_path, d]));
  for (const file of skill.files) {
    const doc = byPath.get(file.path);
    if (!doc) {
      differences.push(`${file.path}: missing from the index`);
      continue;
    }
    byPath.delete(file.path);
    if (doc.sha256 !== file.sha256)
      differences.push(
        `${file.path}: sha256 differs (${short(file.sha256)} in the folder, ${short(doc.sha256)} in the index)`,
      );
    if (Boolean(file.executable) !== Boolean(doc.executable))
      differences.push(
        `${file.path}: ${file.executable ? 'executable' : 'not executable'} in the folder, not in the index`,
      );
    if (file.skipped) {
      if (!doc.skip_reason) differences.push(`${file.path}: skipped in the folder but stored in the index`);
      continue;
    }
    if (doc.file_content === undefined || (doc.file_content === '' && file.size > 0)) {
      differences.push(`${file.path}: empty content for a ${file.size}-byte file`);
    } else if (sha256Hex(storedBytes(doc)) !== doc.sha256) {
      // Checked against the sha256 stored with it: an index that is merely older than the folder
      // is told apart (above) from one whose documents were edited after skillpress wrote them.
      differences.push(
        `${file.path}: stored content does not hash to the sha256 stored with it (the index was edited)`,
      );
    }
  }
  for (const extra of byPath.keys()) differences.push(`${extra}: in the index but not in the folder`);
  return differences;
}

const short = (sha256: string): string => `${sha256.slice(0, 12)}…`;

/** Every skill_id in an index (composite aggregation pages, any catalog size). */
async function indexedSkillIds(client: Client, index: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let after: Record<string, unknown> | undefined;
  for (;;) {
    const res = await client.search({
      index,
      size: 0,
      aggs: {
        ids: {
          composite: { size: 1000, sources: [{ id: { terms: { field: 'skill_id' } } }], ...(after ? { after } : {}) },
        },
      },
    });
    const agg = res.aggregations?.ids as
      { buckets: Array<{ key: { id: string } }>; after_key?: Record<string, unknown> } | undefined;
    for (const bucket of agg?.buckets ?? []) ids.add(bucket.key.id);
    if (!agg?.after_key || agg.buckets.length === 0) return ids;
    after = agg.after_key;
  }
}
