/**
 * A disabled skill (by `skillpress disable`, a glob in skills.disabled, or metadata.enabled: "false")
 * is absent from every public output (feed, cards, discovery index, site pages) and present in
 * Elasticsearch with is_enabled: false.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import {
  ES_URL,
  deleteIndexesWithPrefix,
  prefixedNames,
  removeDirs,
  runCli,
  skillMd,
  tempDir,
  testClient,
  uniquePrefix,
  writeSkill,
} from '../es/helpers.ts';

describe.skipIf(!ES_URL)('disabled skills', () => {
  const prefix = uniquePrefix('disabled');
  const names = prefixedNames(prefix);
  let client: Client;
  let dir: string;
  let root: string;
  let configDir: string;

  beforeAll(async () => {
    client = testClient();
    dir = await tempDir('disabled');
    root = path.join(dir, 'skills');
    configDir = path.join(dir, 'config');
    await writeSkill(root, 'alpha', { 'SKILL.md': skillMd('alpha', 'Alpha does things.') });
    await writeSkill(root, 'beta', { 'SKILL.md': skillMd('beta', 'Beta does things.') });
    await writeSkill(root, 'beta-two', { 'SKILL.md': skillMd('beta-two', 'Beta two does things.') });
    await writeSkill(root, 'gamma', {
      'SKILL.md': skillMd('gamma', 'Gamma does things.', 'metadata:\n  enabled: "false"\n'),
    });
    await mkdir(configDir, { recursive: true });
    await writeFile(
      path.join(configDir, 'skillpress.json'),
      JSON.stringify({ registry: { title: 'Kept title' } }, null, 2),
    );
  });

  afterAll(async () => {
    await deleteIndexesWithPrefix(client, prefix);
    await removeDirs(dir);
  });

  it('skillpress disable/enable edit skills.disabled and keep the rest of the config', async () => {
    expect((await runCli(['disable', 'beta', '--config', configDir])).code).toBe(0);
    expect((await runCli(['disable', 'beta-*', '--config', configDir])).code).toBe(0);
    expect((await runCli(['disable', 'alpha', '--config', configDir])).code).toBe(0);
    const enabled = await runCli(['enable', 'alpha', '--config', configDir]);
    expect(enabled.stdout).toContain('alpha enabled');
    const config = JSON.parse(readFileSync(path.join(configDir, 'skillpress.json'), 'utf8'));
    expect(config).toEqual({ registry: { title: 'Kept title' }, skills: { disabled: ['beta', 'beta-*'] } });
  });

  it('leaves disabled skills out of the feed, the discovery index and the site; the summary counts them', async () => {
    const out = path.join(dir, 'dist');
    const r = await runCli(['build', '--skills', root, '--config', configDir, '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ skills: 1, disabled: 3 });
    expect(readdirSync(path.join(out, 'feed/v1/skills'))).toEqual(['alpha.json']);
    const everything = [
      readFileSync(path.join(out, 'feed/v1/cards.json'), 'utf8'),
      readFileSync(path.join(out, 'feed/v1/search.json'), 'utf8'),
      readFileSync(path.join(out, '.well-known/agent-skills/index.json'), 'utf8'),
      readFileSync(path.join(out, 'index.html'), 'utf8'),
    ].join('\n');
    for (const id of ['beta', 'beta-two', 'gamma']) {
      expect(everything).not.toContain(`${id} does things`);
      expect(existsSync(path.join(out, 'skills', id))).toBe(false);
    }
    expect(existsSync(path.join(out, 'skills', 'alpha', 'index.html'))).toBe(true);
  });

  it('keeps disabled skills in Elasticsearch with is_enabled: false', async () => {
    const r = await runCli([
      'ingest',
      '--skills',
      root,
      '--config',
      configDir,
      '--es',
      ES_URL,
      '--index-prefix',
      prefix,
      '--force',
    ]);
    expect(r.code, r.stderr).toBe(0);
    await client.indices.refresh({ index: names.skills });
    const res = await client.search<{ skill_id: string; is_enabled: boolean }>({
      index: names.skills,
      size: 10,
      sort: ['skill_id'],
    });
    expect(res.hits.hits.map((h) => [h._source!.skill_id, h._source!.is_enabled])).toEqual([
      ['alpha', true],
      ['beta', false],
      ['beta-two', false],
      ['gamma', false],
    ]);
  });
});
