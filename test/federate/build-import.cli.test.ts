/**
 * End to end: one skillpress build is served over HTTP on 127.0.0.1 and a second
 * `skillpress build` imports from it — attribution in its feed, byte-exact files, and a
 * rebuild against the unchanged peer costs one conditional request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { publish } from './helpers/feed.ts';
import { serveDir, type TestServer } from './helpers/server.ts';
import { tempDir, writeSkills } from './helpers/skills.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const NODE = path.join(ROOT, 'node_modules', '.bin', 'node');

let tmp: string;
let peer: TestServer;

beforeAll(async () => {
  tmp = await tempDir('build-import');
  await writeSkills(path.join(tmp, 'peer-skills'), [
    {
      name: 'pdf-tools',
      tags: ['pdf'],
      files: { 'scripts/extract.py': 'print("extract")\n', 'data/bytes.bin': Uint8Array.from([0, 255, 1]) },
    },
    { name: 'csv-clean', tags: ['data'] },
  ]);
  await publish(path.join(tmp, 'peer-skills'), path.join(tmp, 'peer-dist'), 'acme');
  peer = await serveDir(path.join(tmp, 'peer-dist'));
  await writeSkills(path.join(tmp, 'project', 'skills'), [{ name: 'local-one' }]);
  await mkdir(path.join(tmp, 'project', 'config'), { recursive: true });
  await writeFile(
    path.join(tmp, 'project', 'config', 'skillpress.json'),
    JSON.stringify({
      registry: { name: 'home', title: 'Home' },
      federation: { reexport: true, peers: [{ name: 'acme', url: peer.url, mode: 'tags', tags: ['pdf'] }] },
    }),
  );
});

afterAll(async () => {
  await peer?.close();
  await rm(tmp, { recursive: true, force: true });
});

const build = () =>
  run(NODE, [path.join(ROOT, 'scripts', 'skillpress.mjs'), 'build', '--no-site', '--json'], {
    cwd: path.join(tmp, 'project'),
    env: { ...process.env, SOURCE_DATE_EPOCH: '1767225600', CI: '1' },
  });

/** A registry with an empty skills folder that imports everything acme publishes. */
async function aggregator(folder: string, reexport: boolean): Promise<string> {
  const hub = path.join(tmp, folder);
  await mkdir(path.join(hub, 'skills'), { recursive: true });
  await writeFile(
    path.join(hub, 'skillpress.json'),
    JSON.stringify({ registry: { name: 'hub' }, federation: { reexport, peers: [{ name: 'acme', url: peer.url }] } }),
  );
  return hub;
}

describe('a second skillpress build importing from the first over HTTP', () => {
  it('publishes the imported skill with the peer as its registry and the same bytes', async () => {
    const { stdout } = await build();
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, imported: 1 });
    const feed = path.join(tmp, 'project', 'dist', 'feed', 'v1');
    const index = JSON.parse(await readFile(path.join(feed, 'index.json'), 'utf8'));
    expect(index.skills.map((s: { id: string }) => s.id).sort()).toEqual(['local-one', 'pdf-tools']);
    const skill = JSON.parse(await readFile(path.join(feed, 'skills', 'pdf-tools.json'), 'utf8'));
    expect(skill.card.registry).toBe('acme');
    for (const f of ['scripts/extract.py', 'data/bytes.bin', 'SKILL.md']) {
      const ours = await readFile(path.join(feed, 'files', 'pdf-tools', f));
      expect(ours.equals(await readFile(path.join(tmp, 'peer-skills', 'pdf-tools', f))), f).toBe(true);
    }
  });

  it('a rebuild against the unchanged peer sends one conditional request', async () => {
    const before = peer.requests.length;
    const { stdout, stderr } = await build();
    expect(JSON.parse(stdout).ok).toBe(true);
    expect(peer.requests.slice(before)).toEqual([{ path: '/feed/v1/index.json', conditional: true, status: 304 }]);
    expect(stderr).toContain('peer acme: 1 skill(s) fetched, 1 request(s), index not modified');
  });
});

describe('an aggregator: a registry whose own skills folder is empty', () => {
  it("publishes its peers' skills and exits 0 (no no-skills error, nothing counted invalid)", async () => {
    const hub = await aggregator('hub', true);
    const { stdout, stderr } = await run(
      NODE,
      [path.join(ROOT, 'scripts', 'skillpress.mjs'), 'build', '--no-site', '--json'],
      { cwd: hub, env: { ...process.env, SOURCE_DATE_EPOCH: '1767225600', CI: '1' } },
    );
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ ok: true, imported: 2, skills: 2, invalid: 0 });
    expect(result.problems.map((p: { rule: string }) => p.rule)).not.toContain('no-skills');
    expect(stderr).toMatch(/skills: no SKILL\.md in .*skills.*; publishing the 2 skill\(s\) from peers/);
  });

  it('without a skills folder at all, stops before asking the peers and says to keep an empty one (git keeps no empty folder)', async () => {
    const bare = path.join(tmp, 'bare');
    await mkdir(bare, { recursive: true });
    await writeFile(
      path.join(bare, 'skillpress.json'),
      JSON.stringify({ registry: { name: 'bare' }, federation: { peers: [{ name: 'acme', url: peer.url }] } }),
    );
    const before = peer.requests.length;
    const failed = await run(NODE, [path.join(ROOT, 'scripts', 'skillpress.mjs'), 'build', '--no-site'], {
      cwd: bare,
      env: { ...process.env, CI: '1' },
    }).catch((err: { code: number; stderr: string }) => err);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toContain(
      'does not exist or is not a folder; nothing was written (a registry that only imports keeps an empty skills folder: git keeps no empty folder, so commit a file such as skills/.gitkeep)',
    );
    expect(peer.requests.length).toBe(before);
  });

  it('still refuses to publish when nothing came from the peers either', async () => {
    const lonely = path.join(tmp, 'lonely');
    await mkdir(path.join(lonely, 'skills'), { recursive: true });
    await writeFile(
      path.join(lonely, 'skillpress.json'),
      JSON.stringify({
        registry: { name: 'lonely' },
        federation: { peers: [{ name: 'acme', url: peer.url, mode: 'allowlist', skills: ['nothing-here'] }] },
      }),
    );
    const failed = await run(NODE, [path.join(ROOT, 'scripts', 'skillpress.mjs'), 'build', '--no-site'], {
      cwd: lonely,
      env: { ...process.env, CI: '1' },
    }).catch((err: { code: number; stderr: string }) => err);
    expect(failed).toMatchObject({ code: 1 });
    const stderr = (failed as { stderr: string }).stderr;
    expect(stderr).toMatch(/no skill to publish/);
    // The refusal says why nothing came from the peers: their warnings are printed nowhere else.
    expect(stderr).toContain(
      '[peer-skill-missing] peer "acme", skills/nothing-here: listed in the allowlist but not in the peer feed',
    );
  });
});

describe('an aggregator with no skills of its own that does not re-export', () => {
  it("says on its first line that it built the imported skills' site, not nothing", async () => {
    const hub = await aggregator('site-only-hub', false);
    const { stdout, stderr } = await run(NODE, [path.join(ROOT, 'scripts', 'skillpress.mjs'), 'build', '--no-site'], {
      cwd: hub,
      env: { ...process.env, SOURCE_DATE_EPOCH: '1767225600', CI: '1' },
    });
    expect(stdout.split('\n')[0]).toMatch(
      /^built 0 skill\(s\) \(and 2 imported, shown on the site only\), 0 file\(s\) into /,
    );
    // Not "publishing the 2 skill(s) from peers": its feed is empty, and the log says where they are.
    expect(stderr).toContain(
      `skills: no SKILL.md in "${path.join(hub, 'skills')}"; federation.reexport is off, so the 2 skill(s) from peers are in catalog/v1 and on the site only: feed/v1 and .well-known (what peers, the MCP server and install read) hold this registry's own skills, none here. Set "reexport": true under federation to publish the peers' skills there too`,
    );
    expect(stderr).not.toContain('publishing the 2 skill(s) from peers');
    const feed = JSON.parse(await readFile(path.join(hub, 'dist', 'feed', 'v1', 'index.json'), 'utf8'));
    expect(feed.skills).toEqual([]);
  });
});
