/**
 * Issue 11, row 8: a peer whose files cannot be published here (`a` beside `a/b`, a 300-character
 * name) is that peer's warning, never the local build's error — with `reexport` on or off, the
 * build exits 0, says which peer and skill and why, and no staging path reaches any message; and
 * every pass's problems are reported (the site's catalog view of imported skills too).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { install } from '../../src/install/index.ts';
import { publish } from './helpers/feed.ts';
import { serveDir, type TestServer } from './helpers/server.ts';
import { tempDir, writeSkills } from './helpers/skills.ts';
import { addFeedFiles } from './helpers/tamper.ts';
import { CLI, NODE } from '../mcp/helpers.ts';

const run = promisify(execFile);

let tmp: string;
let peer: TestServer;

beforeAll(async () => {
  tmp = await tempDir('unpublishable');
  const dist = path.join(tmp, 'peer-dist');
  await writeSkills(path.join(tmp, 'peer-skills'), [
    { name: 'clashing' },
    { name: 'long-name' },
    { name: 'fine-one', files: { 'tools.json': '{ not json' } },
  ]);
  await publish(path.join(tmp, 'peer-skills'), dist, 'acme');
  await addFeedFiles(dist, 'clashing', { a: 'a file\n', 'a/b': 'a file in the folder a\n' });
  await addFeedFiles(dist, 'long-name', { [`${'n'.repeat(300)}.md`]: 'a long name\n' });
  peer = await serveDir(dist);
  await writeSkills(path.join(tmp, 'project', 'skills'), [{ name: 'local-one' }]);
});

afterAll(async () => {
  await peer?.close();
  await rm(tmp, { recursive: true, force: true });
});

async function build(reexport: boolean): Promise<{ result: Record<string, any>; stderr: string }> {
  const project = path.join(tmp, 'project');
  await mkdir(path.join(project, 'config'), { recursive: true });
  await writeFile(
    path.join(project, 'config', 'skillpress.json'),
    JSON.stringify({ registry: { name: 'home' }, federation: { reexport, peers: [{ name: 'acme', url: peer.url }] } }),
  );
  const out = await run(NODE, [CLI, 'build', '--no-site', '--json'], {
    cwd: project,
    env: { ...process.env, CI: '1' },
  });
  return { result: JSON.parse(out.stdout), stderr: out.stderr };
}

describe.each([true, false])('a peer with unpublishable files, reexport: %s', (reexport) => {
  it('is a warning naming the peer, the skill and the rule; the rest builds and exits 0', async () => {
    const { result, stderr } = await build(reexport);
    expect(result.ok).toBe(true);
    const mine = result.problems.filter((p: { skill: string }) => p.skill === 'peer:acme');
    expect(mine.map((p: { file: string; rule: string; severity: string }) => [p.file, p.rule, p.severity])).toEqual([
      ['skills/clashing', 'peer-unsafe-path', 'warning'],
      ['skills/long-name', 'peer-unsafe-path', 'warning'],
    ]);
    expect(mine[0].message).toContain('path "a" is a file and also the folder of "a/b"');
    expect(mine[1].message).toContain('has a segment longer than 255 bytes');
    expect(result.problems.filter((p: { severity: string }) => p.severity === 'error')).toEqual([]);
    expect(JSON.stringify(result) + stderr).not.toMatch(/staging|EISDIR|ENAMETOOLONG/);
    const feed = reexport ? 'feed/v1' : 'catalog/v1';
    expect(existsSync(path.join(tmp, 'project', 'dist', feed, 'skills', 'fine-one.json'))).toBe(true);
    expect(existsSync(path.join(tmp, 'project', 'dist', feed, 'skills', 'clashing.json'))).toBe(false);
  });

  it("reports the problems of every pass once: the feed, and the site's catalog view of skills not re-exported", async () => {
    const { result } = await build(reexport);
    const toolsJson = result.problems.filter(
      (p: { skill: string; rule: string }) => p.skill === 'fine-one' && p.rule === 'tools-json',
    );
    expect(toolsJson).toHaveLength(1);
  });
});

describe('installing from the build of an aggregator that does not re-export', () => {
  it('names the catalog view that holds an imported skill, and installs from it', async () => {
    await build(false);
    const dist = path.join(tmp, 'project', 'dist');
    const to = path.join(tmp, 'installed');
    const view = path.join(dist, 'catalog', 'v1');
    await expect(install(dist, 'fine-one', { to })).rejects.toThrow(
      `no skill "fine-one" in ${pathToFileURL(path.join(dist, 'feed', 'v1', 'index.json')).href}: this build imports it from a peer and shows it on the site only (federation.reexport is off): install it from ${view}`,
    );
    await expect(install(dist, 'nowhere', { to })).rejects.toThrow(/^no skill "nowhere" in \S+index\.json$/);
    expect((await install(view, 'fine-one', { to })).action).toBe('installed');
  });
});
