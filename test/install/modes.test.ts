/**
 * Issue 13, item 4: `skillpress install` keeps executable bits. The loader records which files
 * are executable, the feed lists it per file, the archives carry it (tar mode, zip external
 * attributes), and install applies it: only the executable bits, never setuid, setgid or sticky.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { install } from '../../src/install/index.ts';
import { loadSkills, tempDir, writeSkills } from '../federate/helpers/skills.ts';
import { publish } from '../federate/helpers/feed.ts';
import { serveDir, type TestServer } from '../federate/helpers/server.ts';
import { skillMdText, tarGz, writeDiscovery, zip } from './helpers.ts';

let tmp: string;
let site: TestServer;
let n = 0;
const target = () => path.join(tmp, `target-${++n}`);
const executable = async (file: string): Promise<boolean> => ((await stat(file)).mode & 0o111) !== 0;

beforeAll(async () => {
  tmp = await tempDir('install-modes');
  await writeSkills(path.join(tmp, 'skills'), [
    {
      name: 'runner',
      files: {
        'scripts/run.sh': '#!/bin/sh\necho run\n',
        'scripts/lib.sh': '#!/bin/sh\n# sourced, not run\n',
        'README.md': '# readme\n',
      },
    },
  ]);
  await chmod(path.join(tmp, 'skills', 'runner', 'scripts', 'run.sh'), 0o755);
  await publish(path.join(tmp, 'skills'), path.join(tmp, 'dist'), 'acme');
  site = await serveDir(path.join(tmp, 'dist'));
});

afterAll(async () => {
  await site?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('executable bits', () => {
  it('the loader records them and the feed lists them per file', async () => {
    const catalog = await loadSkills(path.join(tmp, 'skills'), 'acme');
    const files = catalog.skills[0]!.files;
    expect(files.filter((f) => f.executable).map((f) => f.path)).toEqual(['scripts/run.sh']);
    const json = JSON.parse(await readFile(path.join(tmp, 'dist', 'feed', 'v1', 'skills', 'runner.json'), 'utf8'));
    expect(
      json.files.filter((f: { executable?: boolean }) => f.executable).map((f: { path: string }) => f.path),
    ).toEqual(['scripts/run.sh']);
  });

  it.each([
    ['the feed over HTTP', () => site.url],
    ['the feed in a folder', () => path.join(tmp, 'dist')],
    ['the discovery index (.tar.gz)', () => `${site.url}/.well-known/agent-skills/index.json`],
  ])('install from %s keeps them: run.sh runnable, the rest not', async (_label, source) => {
    const { dir } = await install(source(), 'runner', { to: target() });
    expect(await executable(path.join(dir, 'scripts', 'run.sh'))).toBe(true);
    expect(await executable(path.join(dir, 'scripts', 'lib.sh'))).toBe(false);
    expect(await executable(path.join(dir, 'README.md'))).toBe(false);
    expect(await executable(path.join(dir, 'SKILL.md'))).toBe(false);
  });

  it("the build's .zip records them too (Unix mode in the external attributes)", async () => {
    const dir = path.join(tmp, 'site-build-zip');
    const bytes = await readFile(path.join(tmp, 'dist', '.well-known', 'agent-skills', 'runner.zip'));
    await writeDiscovery(dir, [{ name: 'runner', type: 'archive', file: 'runner.zip', bytes }]);
    const result = await install(dir, 'runner', { to: target() });
    expect(await executable(path.join(result.dir, 'scripts', 'run.sh'))).toBe(true);
    expect(await executable(path.join(result.dir, 'scripts', 'lib.sh'))).toBe(false);
  });

  it.each([['tar.gz'], ['zip']])(
    'from a %s archive: executable bits only, never setuid, setgid or sticky',
    async (kind) => {
      const dir = path.join(tmp, `site-${kind}`);
      const entries = [
        { name: 'SKILL.md', data: skillMdText(`modes-${kind.replace('.', '')}`) },
        { name: 'setuid.sh', data: '#!/bin/sh\n', mode: kind === 'zip' ? 0o104755 : 0o4755 },
        { name: 'sticky.sh', data: '#!/bin/sh\n', mode: kind === 'zip' ? 0o101755 : 0o1755 },
        { name: 'owner-only.sh', data: '#!/bin/sh\n', mode: kind === 'zip' ? 0o100700 : 0o700 },
        { name: 'plain.txt', data: 'text\n', mode: kind === 'zip' ? 0o102644 : 0o2644 },
      ];
      const name = `modes-${kind.replace('.', '')}`;
      const bytes = kind === 'zip' ? zip(entries) : await tarGz(entries);
      await writeDiscovery(dir, [{ name, type: 'archive', file: `${name}.${kind}`, bytes }]);
      const result = await install(dir, name, { to: target() });
      for (const file of ['setuid.sh', 'sticky.sh', 'owner-only.sh', 'plain.txt']) {
        const mode = (await stat(path.join(result.dir, file))).mode;
        expect(mode & 0o7000, file).toBe(0);
        expect((mode & 0o111) !== 0, file).toBe(file.endsWith('.sh'));
      }
    },
  );
});
