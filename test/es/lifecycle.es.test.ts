/**
 * What readers rely on across ingests: a deleted skill disappears from both indexes, an
 * unchanged catalog changes nothing, a failed document leaves the previous catalog serving,
 * and connection problems are one clear line without secrets.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { loadCatalog } from '../../src/load/index.ts';
import { getSkillById, ingestCatalog, IngestError } from '../../src/emit/elasticsearch/index.ts';
import type { Catalog } from '../../src/model/skill.ts';
import {
  aliasTargets,
  deleteIndexesWithPrefix,
  ES_URL,
  prefixedNames,
  removeDirs,
  runCli,
  skillMd,
  syntheticCatalog,
  tempDir,
  testClient,
  uniquePrefix,
  writeSkill,
} from './helpers.ts';

async function countBySkill(client: Client, index: string, skillId: string): Promise<number> {
  return (await client.count({ index, query: { term: { skill_id: skillId } } })).count;
}

describe.skipIf(!ES_URL)('ingest lifecycle', () => {
  const prefix = uniquePrefix('life');
  const names = prefixedNames(prefix);
  let client: Client;
  let root: string;

  beforeAll(async () => {
    client = testClient();
    root = await tempDir('life');
    await writeSkill(root, 'alpha', { 'SKILL.md': skillMd('alpha', 'First skill.'), 'run.sh': 'echo alpha\n' });
    await writeSkill(root, 'beta', {
      'SKILL.md': skillMd('beta', 'Second skill.'),
      'data/x.json': '{"x":1}\n',
      'data/y.json': '{"y":2}\n',
    });
    await writeSkill(root, 'gamma', {
      'SKILL.md': skillMd('gamma', 'Third skill, private.', 'metadata:\n  visibility: private\n  owner: team-a\n'),
    });
  });

  afterAll(async () => {
    await deleteIndexesWithPrefix(client, prefix);
    await client.close();
    await removeDirs(root);
  });

  it('ingests every skill, private ones included, with their access fields', async () => {
    const result = await ingestCatalog(await loadCatalog(root), { client, names });
    expect(result).toMatchObject({ changed: true, skills: 3, files: 6 });
    expect(await aliasTargets(client, names.skills)).toEqual([result.indexes.skills]);
    expect(await aliasTargets(client, names.files)).toEqual([result.indexes.files]);
    const gamma = await getSkillById(client, 'gamma', { names });
    expect(gamma).toMatchObject({ visibility: 'private', owner: 'team-a' });
  });

  it('maps semantic_content as semantic_text only where the cluster supports it', async () => {
    const result = await ingestCatalog(await loadCatalog(root), { client, names });
    const mapping = await client.indices.getMapping({ index: names.skills });
    const field = Object.values(mapping)[0]!.mappings.properties!.semantic_content as { type: string };
    expect(field.type).toBe(result.semanticContentType);
    const plugins = await client.nodes.info({ metric: 'plugins' });
    const modules = Object.values(plugins.nodes).flatMap((n) => (n.modules ?? []).map((m) => m.name));
    expect(result.semanticContentType).toBe(modules.includes('x-pack-inference') ? 'semantic_text' : 'text');
  });

  it('reads back every file of a skill with more files than one page', async () => {
    const many = syntheticCatalog(1, 1200, 20, 'many');
    const manyPrefix = uniquePrefix('many');
    const manyNames = prefixedNames(manyPrefix);
    try {
      await ingestCatalog(many, { client, names: manyNames });
      const skill = await getSkillById(client, 'many-00000', { names: manyNames });
      expect(Object.keys(skill.files)).toHaveLength(1200);
      expect(skill.file_entries.map((e) => e.file_path)).toEqual(many.skills[0]!.files.map((f) => f.path).sort());
    } finally {
      await deleteIndexesWithPrefix(client, manyPrefix);
    }
  });

  it('changes nothing a reader can see when the input is unchanged', async () => {
    const before = {
      skills: await aliasTargets(client, names.skills),
      beta: await getSkillById(client, 'beta', { names }),
    };
    const again = await ingestCatalog(await loadCatalog(root), { client, names });
    expect(again.changed).toBe(false);
    expect(await aliasTargets(client, names.skills)).toEqual(before.skills);
    expect(await getSkillById(client, 'beta', { names })).toEqual(before.beta);
  });

  it('writes identical documents when forced on unchanged input', async () => {
    const before = await getSkillById(client, 'beta', { names });
    const forced = await ingestCatalog(await loadCatalog(root), { client, names, force: true });
    expect(forced.changed).toBe(true);
    expect(await getSkillById(client, 'beta', { names })).toEqual(before);
    // The previous versioned indexes are gone: one index behind each alias, nothing left over.
    const all = Object.keys(await client.indices.get({ index: `${prefix}*` })).sort();
    expect(all).toEqual([forced.indexes.files, forced.indexes.skills].sort());
  });

  it('removes a deleted skill folder from both indexes on the next ingest', async () => {
    expect(await countBySkill(client, names.files, 'beta')).toBe(3);
    await rm(path.join(root, 'beta'), { recursive: true });
    const result = await ingestCatalog(await loadCatalog(root), { client, names });
    expect(result).toMatchObject({ changed: true, skills: 2, files: 3 });
    expect(await countBySkill(client, names.skills, 'beta')).toBe(0);
    expect(await countBySkill(client, names.files, 'beta')).toBe(0);
    expect(await countBySkill(client, names.files, 'alpha')).toBe(2);
  });

  it('keeps the previous catalog serving when a document fails, and reports each failure', async () => {
    const before = { skills: await aliasTargets(client, names.skills), files: await aliasTargets(client, names.files) };
    const catalog: Catalog = await loadCatalog(root);
    catalog.skills[0] = { ...catalog.skills[0]!, id: 'broken', name: 'broken', updated_at: 'not a date' };
    const error = await ingestCatalog(catalog, { client, names }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IngestError);
    const failures = (error as IngestError).failures;
    expect(failures.map((f) => f.id).sort()).toEqual(['broken', 'broken_SKILL.md', 'broken_run.sh']);
    expect(failures[0]!.status).toBe(400);
    expect(failures[0]!.error).toMatch(/created_at/);
    expect(await aliasTargets(client, names.skills)).toEqual(before.skills);
    expect(await aliasTargets(client, names.files)).toEqual(before.files);
    // The half-written indexes were removed.
    expect(Object.keys(await client.indices.get({ index: `${prefix}*` })).sort()).toEqual(
      [...before.files, ...before.skills].sort(),
    );
    expect(await countBySkill(client, names.files, 'alpha')).toBe(2);
  });

  it('skillpress ingest exits 1 with a line per failed document, aliases unchanged', async () => {
    const before = await aliasTargets(client, names.files);
    // Every new files index refuses writes: each document fails on its own.
    await client.indices.putIndexTemplate({
      name: `${prefix}block`,
      index_patterns: [`${names.files}-*`],
      priority: 500,
      template: { settings: { 'index.blocks.write': true } },
    });
    try {
      const res = await runCli(['ingest', '--skills', root, '--es', ES_URL, '--index-prefix', prefix, '--force']);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(new RegExp(`${names.files}-\\S+/alpha_SKILL\\.md: HTTP 403 cluster_block_exception`));
      expect(res.stderr).toMatch(/gamma_SKILL\.md: HTTP 403/);
      expect(res.stderr).toContain('3 document(s) failed; the aliases still point to the previous catalog');
    } finally {
      await client.indices.deleteIndexTemplate({ name: `${prefix}block` });
    }
    expect(await aliasTargets(client, names.files)).toEqual(before);
  });

  it('replaces a plain index named like the alias (the single-index layout) atomically', async () => {
    const legacy = uniquePrefix('legacy');
    const legacyNames = prefixedNames(legacy);
    try {
      await client.indices.create({ index: legacyNames.skills });
      await client.index({
        index: legacyNames.skills,
        id: 'old',
        document: { skill_id: 'old', skill_markdown: '# old' },
        refresh: true,
      });
      const result = await ingestCatalog(await loadCatalog(root), { client, names: legacyNames });
      expect(await aliasTargets(client, legacyNames.skills)).toEqual([result.indexes.skills]);
      expect(await countBySkill(client, legacyNames.skills, 'old')).toBe(0);
      expect(await countBySkill(client, legacyNames.skills, 'alpha')).toBe(1);
    } finally {
      await deleteIndexesWithPrefix(client, legacy);
    }
  });
});

describe('connection errors and configuration', () => {
  it('prints one line naming the URL, without credentials, and exits 1 when Elasticsearch is unreachable', async () => {
    const root = await tempDir('unreachable');
    try {
      await writeSkill(root, 'alpha', { 'SKILL.md': skillMd('alpha', 'First skill.') });
      const res = await runCli(['ingest', '--skills', root, '--es', 'http://admin:hunter2secret@127.0.0.1:9'], {
        ELASTICSEARCH_API_KEY: 'c2VjcmV0LWFwaS1rZXk=',
      });
      expect(res.code).toBe(1);
      expect(res.stdout).toBe('');
      const lines = res.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^skillpress ingest: cannot reach Elasticsearch at http:\/\/\*\*\*@127\.0\.0\.1:9\b/);
      expect(res.stderr).not.toContain('hunter2secret');
      expect(res.stderr).not.toContain('admin');
      expect(res.stderr).not.toContain('c2VjcmV0LWFwaS1rZXk=');
    } finally {
      await removeDirs(root);
    }
  });

  it('build says it skipped Elasticsearch when neither ELASTICSEARCH_URL nor --es is given; with --es it ingests', async () => {
    const root = await tempDir('skip');
    const prefix = uniquePrefix('build-es');
    try {
      await writeSkill(path.join(root, 'skills'), 'alpha', { 'SKILL.md': skillMd('alpha', 'First skill.') });
      const args = ['build', '--skills', path.join(root, 'skills'), '--out', path.join(root, 'dist'), '--no-site'];
      const res = await runCli([...args, '--json']);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toContain(
        'elasticsearch: skipped (set ELASTICSEARCH_URL or pass --es to ingest into agent_skills and agent_skill_files)',
      );
      expect(JSON.parse(res.stdout)).not.toHaveProperty('elasticsearch');
      const withEs = await runCli([...args, '--json', '--es', ES_URL, '--index-prefix', prefix]);
      expect(withEs.code, withEs.stderr).toBe(0);
      expect(JSON.parse(withEs.stdout).elasticsearch).toMatchObject({ skills: 1 });
    } finally {
      const es = testClient();
      await deleteIndexesWithPrefix(es, prefix);
      await es.close();
      await removeDirs(root);
    }
  });
});
