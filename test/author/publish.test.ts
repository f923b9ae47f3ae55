/**
 * The version history a build publishes (skill JSON `versions`, earlier versions' archives with
 * their sha256) and `install <source> <name>@<version>`, digest-checked. The skills folder is
 * outside git here: versions come from the version store.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSkill, updateSkill } from '../../src/author/index.ts';
import { build } from '../../src/build.ts';
import { loadCatalog } from '../../src/load/index.ts';
import { install } from '../../src/install/index.ts';
import { sha256Hex } from '../../src/lib/hash.ts';
import { FeedSkill, DiscoveryIndex } from '../../src/model/feed.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import { serveDir } from '../federate/helpers/server.ts';

let tmp: string;
let out: string;
let skill: FeedSkill;
const feedPath = (rel: string) => path.join(out, 'feed', 'v1', ...rel.split('/'));

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-publish-'));
  const skills = path.join(tmp, 'skills');
  await mkdir(skills);
  const base = { skills, duplicates: false as const };
  await createSkill({ ...base, name: 'greet', description: 'Greet a customer.', body: 'Say hello.\n' });
  await updateSkill({ skills, name: 'greet', files: [{ path: 'phrases.md', content: 'Hello!\n' }] });
  await updateSkill({ skills, name: 'greet', body: 'Say hello by name.\n' });
  await createSkill({ ...base, name: 'other', description: 'Another skill without history.', body: 'Other.\n' });
  out = path.join(tmp, 'dist');
  const config = SkillpressConfig.parse({ registry: { name: 'upstream' }, versions: { archives: 1 } });
  await build({ skills, out, config, site: false });
  skill = FeedSkill.parse(JSON.parse(await readFile(feedPath('skills/greet.json'), 'utf8')));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

test('the skill JSON lists every version, newest first; the newest earlier ones keep an archive with its sha256', async () => {
  const v = skill.versions!;
  expect(v).toMatchObject({ schema: 1, latest: '3', registry: 'upstream' });
  expect(v.history.map((h) => [h.version, h.changes])).toEqual([
    ['3', ['introduction changed']],
    ['2', ['file added: phrases.md']],
    ['1', ['created']],
  ]);
  expect(v.history[0]!.digest).toBe(skill.card.digest);
  // versions.archives is 1: only version 2 stays downloadable.
  expect(v.history.map((h) => h.archive !== undefined)).toEqual([false, true, false]);
  const archive = v.history[1]!.archive!;
  expect(archive.url).toBe('../../.well-known/agent-skills/versions/greet/2.tar.gz');
  const bytes = await readFile(feedPath(archive.url));
  expect(sha256Hex(bytes)).toBe(archive.sha256);
  expect(bytes.byteLength).toBe(archive.bytes);
});

test('the discovery index stays on the latest version; a skill without history has no versions block', async () => {
  const discovery = DiscoveryIndex.parse(
    JSON.parse(await readFile(path.join(out, '.well-known', 'agent-skills', 'index.json'), 'utf8')),
  );
  expect(discovery.skills.filter((s) => s.name === 'greet').map((s) => s.version)).toEqual(['3']);
  const other = FeedSkill.parse(JSON.parse(await readFile(feedPath('skills/other.json'), 'utf8')));
  expect(other.versions).toMatchObject({ latest: '1', history: [{ version: '1' }] });
});

test('install name@version installs that version, checked against its digests', async () => {
  const to = path.join(tmp, 'agent');
  const pinned = await install(out, 'greet@2', { to });
  expect(pinned).toMatchObject({ action: 'installed', version: '2', digest: skill.versions!.history[1]!.digest });
  expect(await readFile(path.join(to, 'greet', 'phrases.md'), 'utf8')).toBe('Hello!\n');
  expect(await readFile(path.join(to, 'greet', 'SKILL.md'), 'utf8')).toMatch(/version: "2"[\s\S]*Say hello\.\n$/);
  const latest = await install(out, 'greet@3', { to, force: true });
  expect(latest).toMatchObject({ version: '3', digest: skill.card.digest });
  await expect(install(out, 'greet@1', { to })).rejects.toThrow(/listed but no longer downloadable/);
  await expect(install(out, 'greet@9', { to })).rejects.toThrow(/has no published version "9".*versions: 3, 2, 1/);
});

test("federation imports the peer's latest version and shows the peer's history, attributed to it", async () => {
  const peer = await serveDir(out);
  try {
    const skills = path.join(tmp, 'own-skills');
    await createSkill({
      skills,
      name: 'local-one',
      description: 'A local skill.',
      body: 'Local.\n',
      duplicates: false,
    });
    const mirror = path.join(tmp, 'mirror');
    const config = SkillpressConfig.parse({
      registry: { name: 'mirror' },
      federation: { peers: [{ name: 'upstream', url: `${peer.url}/` }], reexport: true },
    });
    await build({ skills, out: mirror, config, site: false });
    const imported = FeedSkill.parse(
      JSON.parse(await readFile(path.join(mirror, 'feed', 'v1', 'skills', 'greet.json'), 'utf8')),
    );
    expect(imported.card).toMatchObject({ registry: 'upstream', version: '3', digest: skill.card.digest });
    expect(imported.versions).toMatchObject({ latest: '3', registry: 'upstream' });
    expect(imported.versions!.history.map((h) => [h.version, h.archive])).toEqual([
      ['3', undefined],
      ['2', undefined],
      ['1', undefined],
    ]);
  } finally {
    await peer.close();
  }
});

test('a tampered archive is refused, and nothing is installed', async () => {
  const archive = feedPath(skill.versions!.history[1]!.archive!.url);
  const bytes = await readFile(archive);
  bytes[bytes.length - 5] = bytes[bytes.length - 5]! ^ 0xff;
  await writeFile(archive, bytes);
  const to = path.join(tmp, 'agent-tampered');
  await expect(install(out, 'greet@2', { to })).rejects.toMatchObject({ rule: 'digest-mismatch' });
  await expect(readFile(path.join(to, 'greet', 'SKILL.md'))).rejects.toThrow(/ENOENT/);
});

test("skills at a project's top: the state stays inside the project, and the loader does not take its copies for skills", async () => {
  // A team keeps its skills at the top of its repository (a package.json there): nothing may be
  // written above it, and the version store's copies of each version must not load as skills.
  const project = path.join(tmp, 'team', 'project');
  await mkdir(project, { recursive: true });
  await writeFile(path.join(project, 'package.json'), '{ "private": true }\n');
  const base = { skills: project, duplicates: false as const };
  await createSkill({ ...base, name: 'triage', description: 'Triage an incoming bug report.', body: 'Label it.\n' });
  await updateSkill({ skills: project, name: 'triage', body: 'Label it and assign it.\n' });
  expect(await readdir(path.join(tmp, 'team'))).toEqual(['project']);
  expect(await readdir(path.join(project, '.skillpress', 'versions', 'project', 'triage'))).toEqual(['1', '2']);
  const catalog = await loadCatalog(project);
  expect(catalog.skills.map((s) => s.id)).toEqual(['triage']);
  expect(catalog.problems.filter((p) => p.rule === 'duplicate-copy' || p.rule === 'name-unique')).toEqual([]);
});
