/**
 * A skill whose SKILL.md writes its name as a title (`Ahrefs Automation`) is published under a
 * valid id (`ahrefs-automation`, its folder's name) with the written name as its title (issue 13).
 * Everything downstream of the feed takes it under that id: install (from the feed and from the
 * discovery index), a peer importing it over HTTP, and the MCP skills extension.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { build } from '../../src/build.ts';
import { federate } from '../../src/federate/index.ts';
import { DirStore } from '../../src/feed-reader/index.ts';
import { install } from '../../src/install/index.ts';
import { FeedCatalog } from '../../src/mcp/catalog.ts';
import { createServer } from '../../src/mcp/server.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import { serveDir, type TestServer } from './helpers/server.ts';
import { loadSkills, tempDir, writeSkills } from './helpers/skills.ts';

const ListSkills = z.looseObject({
  skills: z.array(z.looseObject({ uri: z.string(), frontmatter: z.looseObject({ name: z.string() }) })),
});

const TITLED =
  '---\nname: Ahrefs Automation\ndescription: Automate Ahrefs backlink and keyword reports.\n---\n# Ahrefs\n\nUse the Ahrefs API.\n';

let tmp: string;
let site: TestServer;

beforeAll(async () => {
  tmp = await tempDir('titled');
  const skills = path.join(tmp, 'skills');
  await mkdir(path.join(skills, 'ahrefs-automation'), { recursive: true });
  await writeFile(path.join(skills, 'ahrefs-automation', 'SKILL.md'), TITLED);
  const result = await build({
    skills,
    out: path.join(tmp, 'dist'),
    config: SkillpressConfig.parse({ registry: { name: 'titles' } }),
    site: false,
  });
  expect(result.problems.map((p) => p.rule)).toEqual(['name-normalized']);
  site = await serveDir(path.join(tmp, 'dist'));
});

afterAll(async () => {
  await site?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('a skill published under a normalized name', () => {
  it.each(['feed folder', 'discovery index over HTTP'])(
    'installs under its id from the %s, SKILL.md as written',
    async (from) => {
      const to = path.join(tmp, `installed-${from.split(' ')[0]}`);
      const source = from === 'feed folder' ? path.join(tmp, 'dist') : site.url;
      const result = await install(source, 'ahrefs-automation', { to });
      expect(result.action).toBe('installed');
      expect(await readFile(path.join(to, 'ahrefs-automation', 'SKILL.md'), 'utf8')).toBe(TITLED);
    },
  );

  it('is imported by a peer under its id, with its title', async () => {
    await writeSkills(path.join(tmp, 'peer-skills'), [{ name: 'own-skill' }]);
    const config = SkillpressConfig.parse({
      registry: { name: 'home' },
      federation: { peers: [{ name: 'titles', url: site.url }] },
    });
    const catalog = await federate(await loadSkills(path.join(tmp, 'peer-skills'), 'home'), config, {
      cacheDir: path.join(tmp, 'cache'),
    });
    expect(catalog.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(catalog.skills.find((s) => s.name === 'ahrefs-automation')).toMatchObject({
      title: 'Ahrefs Automation',
      registry: 'titles',
    });
  });

  it('is listed by the MCP skills extension under its id', async () => {
    const catalog = FeedCatalog.load(new DirStore(path.join(tmp, 'dist/feed/v1')));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const handle = serveStdio(() => createServer(() => catalog, { name: 'skillpress', version: 'test' }), {
      transport: serverSide,
    });
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
    try {
      const listed = await client.request({ method: 'skills/list', params: {} }, ListSkills);
      expect(listed.skills).toEqual([
        expect.objectContaining({
          uri: 'skill://ahrefs-automation/SKILL.md',
          frontmatter: expect.objectContaining({ name: 'ahrefs-automation' }),
        }),
      ]);
      const skillMd = await client.readResource({ uri: 'skill://ahrefs-automation/SKILL.md' });
      expect((skillMd.contents[0] as { text: string }).text).toBe(TITLED);
    } finally {
      await client.close();
      await handle.close();
    }
  });
});
