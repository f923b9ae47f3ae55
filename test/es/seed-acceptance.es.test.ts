/**
 * Seed 000's acceptance tests on a real Elasticsearch: the three example skills give exactly
 * nine file documents, no bytecode, no empty content, get_skill_by_id returns metadata + every
 * file, and each skill runs from files read back out of Elasticsearch (not from skills/).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { loadCatalog } from '../../src/load/index.ts';
import {
  getSkillById,
  ingestCatalog,
  writeSkillFolder,
  type FileDocument,
} from '../../src/emit/elasticsearch/index.ts';
import { runSeedSkill, SEED_CASES, SEED_SKILLS } from '../helpers/run-seed-skill.ts';
import {
  copySeedSkills,
  deleteIndexesWithPrefix,
  ES_URL,
  prefixedNames,
  removeDirs,
  runCli,
  tempDir,
  testClient,
  uniquePrefix,
} from './helpers.ts';

describe.skipIf(!ES_URL)('seed 000 acceptance on Elasticsearch', () => {
  const prefix = uniquePrefix('seed');
  const names = prefixedNames(prefix);
  let client: Client;
  let skillsDir: string;
  let scratch: string;

  beforeAll(async () => {
    client = testClient();
    skillsDir = await copySeedSkills();
    scratch = await tempDir('seed-out');
    // Bytecode next to the scripts, as a Python run leaves it: it must never be indexed.
    for (const s of SEED_SKILLS) {
      await mkdir(path.join(skillsDir, s.id, '__pycache__'), { recursive: true });
      await writeFile(
        path.join(skillsDir, s.id, '__pycache__', `${s.script.replace('.py', '')}.cpython-311.pyc`),
        Buffer.from([0x6f, 0x0d, 0x0d, 0x0a, 0, 0]),
      );
      await writeFile(path.join(skillsDir, s.id, 'stray.pyc'), Buffer.from([0x6f, 0x0d, 0x0d, 0x0a]));
    }
    const catalog = await loadCatalog(skillsDir);
    expect(catalog.problems.filter((p) => p.severity === 'error')).toEqual([]);
    await ingestCatalog(catalog, { client, names });
  });

  afterAll(async () => {
    await deleteIndexesWithPrefix(client, prefix);
    await client.close();
    await removeDirs(skillsDir, scratch);
  });

  async function allFileDocs(): Promise<FileDocument[]> {
    const res = await client.search<FileDocument>({ index: names.files, query: { match_all: {} }, size: 100 });
    return res.hits.hits.map((h) => h._source!);
  }

  it('indexes exactly 3 files per seed skill, 9 in total', async () => {
    const { count } = await client.count({ index: names.files });
    expect(count).toBe(9);
    for (const s of SEED_SKILLS) {
      const res = await client.search<FileDocument>({
        index: names.files,
        query: { term: { skill_id: s.id } },
        size: 100,
      });
      expect(res.hits.hits.map((h) => h._source!.file_name).sort()).toEqual([...s.files]);
    }
  });

  it('uses the document id {skill_id}_{file_name} for top-level files', async () => {
    const doc = await client.get<FileDocument>({ index: names.files, id: 'verify-expense-policy_policy_check.py' });
    expect(doc._source).toMatchObject({
      skill_id: 'verify-expense-policy',
      file_name: 'policy_check.py',
      file_path: 'policy_check.py',
      file_type: 'py',
      encoding: 'utf-8',
    });
  });

  it('indexes no .pyc file and nothing from __pycache__', async () => {
    const pyc = await client.count({ index: names.files, query: { wildcard: { file_name: '*.pyc' } } });
    const cache = await client.count({ index: names.files, query: { wildcard: { file_path: '*__pycache__*' } } });
    expect(pyc.count).toBe(0);
    expect(cache.count).toBe(0);
  });

  it('stores non-empty content for every non-empty file', async () => {
    for (const doc of await allFileDocs()) {
      expect(doc.file_size_bytes, `${doc.skill_id}/${doc.file_path}`).toBeGreaterThan(0);
      expect(doc.file_content, `${doc.skill_id}/${doc.file_path}`).toBeTruthy();
      expect(Buffer.byteLength(doc.file_content!)).toBe(doc.file_size_bytes);
    }
  });

  it('keeps agent_skills metadata-only (no skill_markdown, no resources)', async () => {
    const res = await client.get<Record<string, unknown>>({ index: names.skills, id: 'verify-expense-policy' });
    expect(res._source).toMatchObject({
      skill_id: 'verify-expense-policy',
      name: 'verify-expense-policy',
      domain: 'finance',
      file_count: 3,
    });
    expect(res._source).not.toHaveProperty('skill_markdown');
    expect(res._source).not.toHaveProperty('resources');
    const mapping = await client.indices.getMapping({ index: names.skills });
    const properties = Object.values(mapping)[0]!.mappings.properties!;
    expect(properties).not.toHaveProperty('skill_markdown');
    expect(properties).not.toHaveProperty('resources');
  });

  it('getSkillById returns metadata, every file and skill_markdown', async () => {
    for (const s of SEED_SKILLS) {
      const skill = await getSkillById(client, s.id, { names });
      expect(skill.skill_id).toBe(s.id);
      expect(skill.domain).toBe(s.domain);
      expect(Object.keys(skill.files).sort()).toEqual([...s.files]);
      expect(skill.skill_markdown).toBe(skill.files['SKILL.md']);
      expect(skill.skill_markdown).toMatch(new RegExp(`^---\\nname: ${s.id}\\n`));
    }
  });

  describe('each seed skill runs from files read back out of Elasticsearch', () => {
    const folders = new Map<string, string>();
    beforeAll(async () => {
      for (const s of SEED_SKILLS) {
        const skill = await getSkillById(client, s.id, { names });
        const dir = path.join(scratch, s.id);
        await writeSkillFolder(skill.file_entries, dir);
        folders.set(s.id, dir);
      }
    });
    it.each(SEED_CASES.map((c) => [`${c.skill}: ${c.name}`, c] as const))('%s', async (_label, c) => {
      const dir = folders.get(c.skill)!;
      expect(dir.startsWith(scratch)).toBe(true);
      expect(await runSeedSkill(dir, c.input)).toMatchObject(c.expected);
    });
  });

  it('validate-index agrees with the folder, and reports a changed file', async () => {
    const args = ['validate-index', '--skills', skillsDir, '--es', ES_URL, '--index-prefix', prefix];
    const ok = await runCli(args);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/verify-expense-policy\s+3\s+3\s+ok/);
    expect(ok.stdout).toContain('3 of 3 skill(s) match');

    await writeFile(path.join(skillsDir, 'verify-expense-policy', 'allowance_table.json'), '{"changed": true}\n');
    const changed = await runCli(args);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/verify-expense-policy\s+3\s+3\s+DIFFERENT/);
    expect(changed.stdout).toContain('allowance_table.json: sha256 differs');
  });
});
