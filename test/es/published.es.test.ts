/**
 * Elasticsearch holds what the feed publishes: a build (or ingest) of a folder with one invalid
 * skill writes the valid ones and reports the invalid one; `--strict` keeps all or nothing;
 * validate-index compares with what was published. And `skillpress get <id> | head -c 400`
 * ends quietly (no EPIPE stack trace).
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { REPO_ROOT } from '../helpers/run-seed-skill.ts';
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

let client: Client;
let skills: string;
let out: string;
const prefix = uniquePrefix('published');
const names = prefixedNames(prefix);

const count = async (): Promise<number> => {
  await client.indices.refresh({ index: names.skills });
  return (await client.count({ index: names.skills })).count;
};

beforeAll(async () => {
  if (!ES_URL) return;
  client = testClient();
  skills = await tempDir('published-skills');
  out = await tempDir('published-out');
  await writeSkill(skills, 'big-reference', {
    'SKILL.md': skillMd('big-reference', 'Use when you need the long reference table.'),
    'reference.md': 'row of the reference table\n'.repeat(20_000),
  });
  await writeSkill(skills, 'short-notes', { 'SKILL.md': skillMd('short-notes', 'Use when writing short notes.') });
  await writeSkill(skills, 'broken', { 'SKILL.md': '---\nname: broken\n---\n\nNo description.\n' });
});

afterAll(async () => {
  if (!ES_URL) return;
  await deleteIndexesWithPrefix(client, prefix);
  await client.close();
  await removeDirs(skills, out);
});

const build = (...more: string[]) =>
  runCli(['build', '--skills', skills, '--out', out, '--no-site', '--index-prefix', prefix, ...more], {
    ELASTICSEARCH_URL: ES_URL,
  });

describe.skipIf(!ES_URL)('Elasticsearch holds what the feed publishes', () => {
  it('build writes the valid skills and names the invalid one; validate-index agrees', async () => {
    const r = await build();
    expect(r.code).toBe(1); // the build reports the invalid skill, as without Elasticsearch
    expect(r.stderr).toContain('elasticsearch: 1 invalid skill(s) left out, as the feed leaves them out: broken');
    expect(r.stdout).toContain('built 2 skill(s)');
    expect(await count()).toBe(2);

    const check = await runCli(['validate-index', '--skills', skills, '--es', ES_URL, '--index-prefix', prefix]);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toContain('2 of 2 skill(s) match');
    expect(check.stdout).toContain(
      '1 invalid skill folder(s) not published, so not expected in the index:\n  broken\n',
    );
  }, 180_000);

  it('--strict keeps all or nothing: a new skill is not written while one is invalid', async () => {
    await writeSkill(skills, 'third-skill', {
      'SKILL.md': skillMd('third-skill', 'Use when a third skill is needed.'),
    });
    const r = await build('--strict');
    expect(r.stderr).toContain('elasticsearch: not ingested: 1 invalid skill(s) and --strict');
    expect(await count()).toBe(2);
    const ingest = await runCli(['ingest', '--skills', skills, '--es', ES_URL, '--index-prefix', prefix, '--strict']);
    expect(ingest.code).toBe(1);
    expect(ingest.stderr).toContain('and --strict; nothing was written to Elasticsearch');
    expect(await count()).toBe(2);

    const lenient = await runCli(['ingest', '--skills', skills, '--es', ES_URL, '--index-prefix', prefix]);
    expect(lenient.code).toBe(1);
    expect(lenient.stderr).toContain('1 invalid skill(s) left out:\n  broken\n');
    expect(await count()).toBe(3);
  }, 180_000);

  it('get | head -c 400 ends quietly', async () => {
    const cli = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(REPO_ROOT, 'scripts/skillpress.mjs'))}`;
    const script = `${cli} get big-reference --es ${ES_URL} --index-prefix ${prefix} | head -c 400 > ${JSON.stringify(path.join(out, 'head.txt'))}`;
    const { stderr } = await promisify(execFile)('bash', ['-o', 'pipefail', '-c', script], {
      env: { ...process.env, ELASTICSEARCH_URL: '' },
    });
    expect(stderr).toBe('');
    await writeFile(path.join(out, 'done'), '');
  }, 120_000);

  it('validate-index --quiet lists only the skills that differ; the tally counts them all', async () => {
    const args = ['validate-index', '--skills', skills, '--es', ES_URL, '--index-prefix', prefix, '--quiet'];
    const same = await runCli(args);
    expect(same.code, same.stdout + same.stderr).toBe(0);
    expect(same.stdout).not.toContain('status'); // no table when nothing differs
    expect(same.stdout).toContain('3 of 3 skill(s) match');

    await writeFile(path.join(skills, 'short-notes', 'SKILL.md'), skillMd('short-notes', 'Use when writing notes.'));
    const changed = await runCli(args);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/short-notes\s+1\s+1\s+DIFFERENT\n\s+- SKILL\.md: sha256 differs/);
    expect(changed.stdout).not.toContain('big-reference');
    expect(changed.stdout).toContain('2 of 3 skill(s) match');
  }, 120_000);
});
