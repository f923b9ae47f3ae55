/**
 * End to end: `skillpress build` imports from a peer over HTTP on 127.0.0.1, the peer goes down,
 * and the next build (same `.cache/federation`) still publishes the peer's skills, served from the
 * cache and marked unhealthy: changes.json does not list them as removed (registries federating
 * from this one would delete them), and the build says the peer could not be reached.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { publish } from './helpers/feed.ts';
import { serveDir, type TestServer } from './helpers/server.ts';
import { tempDir, writeSkills } from './helpers/skills.ts';
import { CLI, NODE } from '../mcp/helpers.ts';

const run = promisify(execFile);

let tmp: string;
let peer: TestServer;
const project = () => path.join(tmp, 'project');
const feed = (...rel: string[]) => path.join(project(), 'dist', 'feed', 'v1', ...rel);
const json = async (file: string) => JSON.parse(await readFile(file, 'utf8'));

beforeAll(async () => {
  tmp = await tempDir('unreachable-cli');
  await writeSkills(path.join(tmp, 'peer-skills'), [
    { name: 'pdf-tools', files: { 'scripts/extract.py': 'print("extract")\n' } },
    { name: 'csv-clean' },
  ]);
  await publish(path.join(tmp, 'peer-skills'), path.join(tmp, 'peer-dist'), 'acme');
  peer = await serveDir(path.join(tmp, 'peer-dist'));
  await writeSkills(path.join(project(), 'skills'), [{ name: 'local-one' }]);
  await mkdir(path.join(project(), 'config'), { recursive: true });
  await writeFile(
    path.join(project(), 'config', 'skillpress.json'),
    JSON.stringify({
      registry: { name: 'home', title: 'Home' },
      federation: { reexport: true, timeout_ms: 2_000, peers: [{ name: 'acme', url: peer.url }] },
    }),
  );
});

afterAll(async () => {
  await peer?.close();
  await rm(tmp, { recursive: true, force: true });
});

const build = async (epoch: number) => {
  const { stdout, stderr } = await run(NODE, [CLI, 'build', '--no-site', '--json'], {
    cwd: project(),
    env: { ...process.env, SOURCE_DATE_EPOCH: String(epoch), CI: '1' },
  });
  return { result: JSON.parse(stdout), stderr };
};

describe("a peer down for one build keeps its skills in this registry's feed", () => {
  it('the first build imports them', async () => {
    const { result } = await build(1_767_225_600);
    expect(result).toMatchObject({ ok: true, imported: 2 });
    const index = await json(feed('index.json'));
    expect(index.skills.map((s: { id: string }) => s.id).sort()).toEqual(['csv-clean', 'local-one', 'pdf-tools']);
  });

  it('the next one, with the peer down, serves them from the cache: not removed, marked unhealthy, and said', async () => {
    await peer.close();
    const { result, stderr } = await build(1_767_312_000);
    expect(result).toMatchObject({ ok: true, imported: 2 });
    const index = await json(feed('index.json'));
    expect(index.skills.map((s: { id: string }) => s.id).sort()).toEqual(['csv-clean', 'local-one', 'pdf-tools']);
    const changes = await json(feed('changes.json'));
    expect(changes.changes.filter((c: { change: string }) => c.change === 'removed')).toEqual([]);
    const skill = await json(feed('skills', 'pdf-tools.json'));
    expect(skill.card.registry).toBe('acme');
    expect(skill.summary.health.status).toBe('unhealthy');
    expect(skill.summary.health.detail).toContain(`${peer.url} could not be reached`);
    const script = await readFile(feed('files', 'pdf-tools', 'scripts', 'extract.py'), 'utf8');
    expect(script).toBe('print("extract")\n');

    const warnings = result.problems.filter((p: { skill: string }) => p.skill === 'peer:acme');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ severity: 'warning', file: 'index.json', rule: 'peer-network' });
    expect(warnings[0].message).toContain(`peer "acme", index.json: ${peer.url} could not be reached`);
    expect(warnings[0].message).toContain('its 2 skill(s) are served from the copy of its feed verified on');
    expect(stderr).toContain('peer acme: 2 skill(s) served from the cache (unreachable; copy verified on');
  });
});
