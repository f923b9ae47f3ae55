/**
 * `skillpress install` against real HTTP servers on 127.0.0.1: a skillpress feed and a
 * .well-known/agent-skills index with .tar.gz and .zip archives, good and malicious.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { install, MANIFEST, skillsFolder } from '../../src/install/index.ts';
import { publish } from '../federate/helpers/feed.ts';
import { serveDir, type TestServer } from '../federate/helpers/server.ts';
import { tempDir, writeSkills } from '../federate/helpers/skills.ts';
import { listTree } from '../federate/helpers/tamper.ts';
import { skillMdText, tarGz, writeDiscovery, zip } from './helpers.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const NODE = path.join(ROOT, 'node_modules', '.bin', 'node');
const BINARY = Uint8Array.from([0, 159, 146, 150, 255, 0]);

let tmp: string;
let feed: TestServer;
let site: TestServer;
let n = 0;
const freshTarget = () => path.join(tmp, `target-${++n}`, '.agents', 'skills');

beforeAll(async () => {
  tmp = await tempDir('install');
  await writeSkills(path.join(tmp, 'skills'), [
    {
      name: 'pdf-tools',
      files: {
        'scripts/extract.py': 'print(1)\n',
        'assets/icon.bin': BINARY,
        'references/a b/#hash ?q%20.md': '# odd\n',
      },
    },
    { name: 'other-skill' },
  ]);
  await publish(path.join(tmp, 'skills'), path.join(tmp, 'dist'), 'acme');
  feed = await serveDir(path.join(tmp, 'dist'));

  const good = [
    { name: 'SKILL.md', data: skillMdText('tar-skill') },
    { name: 'scripts/', type: 'directory' as const },
    { name: 'scripts/run.sh', data: 'echo hi\n' },
    { name: 'assets/blob.bin', data: BINARY },
  ];
  await writeDiscovery(path.join(tmp, 'site'), [
    { name: 'md-only', type: 'skill-md', file: 'md-only/SKILL.md', bytes: Buffer.from(skillMdText('md-only')) },
    { name: 'tar-skill', type: 'archive', file: 'tar-skill.tar.gz', bytes: await tarGz(good) },
    {
      name: 'zip-skill',
      type: 'archive',
      file: 'zip-skill.zip',
      bytes: zip(
        good
          .filter((e) => e.type !== 'directory')
          .map((e) => (e.name === 'SKILL.md' ? { ...e, data: skillMdText('zip-skill') } : e)),
      ),
    },
    {
      name: 'dot-slash',
      type: 'archive',
      file: 'dot-slash.tar.gz',
      bytes: await tarGz([
        { name: './', type: 'directory' },
        { name: './SKILL.md', data: skillMdText('dot-slash') },
      ]),
    },
    {
      name: 'tar-dotdot',
      type: 'archive',
      file: 'tar-dotdot.tar.gz',
      bytes: await tarGz([
        { name: 'SKILL.md', data: skillMdText('tar-dotdot') },
        { name: '../../escaped.txt', data: 'pwned' },
      ]),
    },
    {
      name: 'tar-absolute',
      type: 'archive',
      file: 'tar-absolute.tar.gz',
      bytes: await tarGz([
        { name: 'SKILL.md', data: skillMdText('tar-absolute') },
        { name: '/tmp/skillpress-absolute.txt', data: 'pwned' },
      ]),
    },
    {
      name: 'tar-symlink',
      type: 'archive',
      file: 'tar-symlink.tar.gz',
      bytes: await tarGz([
        { name: 'SKILL.md', data: skillMdText('tar-symlink') },
        { name: 'passwd', type: 'symlink', linkname: '/etc/passwd' },
      ]),
    },
    {
      name: 'tar-hardlink',
      type: 'archive',
      file: 'tar-hardlink.tar.gz',
      bytes: await tarGz([
        { name: 'SKILL.md', data: skillMdText('tar-hardlink') },
        { name: 'h', type: 'link', linkname: 'SKILL.md' },
      ]),
    },
    {
      name: 'zip-dotdot',
      type: 'archive',
      file: 'zip-dotdot.zip',
      bytes: zip([
        { name: 'SKILL.md', data: skillMdText('zip-dotdot') },
        { name: '../escaped.txt', data: 'pwned' },
      ]),
    },
    {
      name: 'zip-symlink',
      type: 'archive',
      file: 'zip-symlink.zip',
      bytes: zip([
        { name: 'SKILL.md', data: skillMdText('zip-symlink') },
        { name: 'passwd', type: 'symlink', linkname: '/etc/passwd' },
      ]),
    },
    {
      name: 'wrapped',
      type: 'archive',
      file: 'wrapped.tar.gz',
      bytes: await tarGz([{ name: 'wrapped/SKILL.md', data: skillMdText('wrapped') }]),
    },
    {
      name: 'bad-digest',
      type: 'archive',
      file: 'bad-digest.tar.gz',
      bytes: await tarGz([{ name: 'SKILL.md', data: skillMdText('bad-digest') }]),
      digest: `sha256:${'0'.repeat(64)}`,
    },
    {
      name: 'misnamed',
      type: 'skill-md',
      file: 'misnamed/SKILL.md',
      bytes: Buffer.from(skillMdText('something-else')),
    },
  ]);
  site = await serveDir(path.join(tmp, 'site'));
});

afterAll(async () => {
  await feed?.close();
  await site?.close();
  await rm(tmp, { recursive: true, force: true });
});

async function expectSameFiles(dir: string, sourceDir: string): Promise<void> {
  const installed = await listTree(dir);
  expect(installed).toEqual(await listTree(sourceDir));
  for (const f of installed)
    expect((await readFile(path.join(dir, f))).equals(await readFile(path.join(sourceDir, f))), f).toBe(true);
}

describe('install from a skillpress feed', () => {
  it('installs every file byte-exact, records the digest, and a re-run downloads nothing but the index', async () => {
    const to = freshTarget();
    const first = await install(feed.url, 'pdf-tools', { to });
    expect(first.action).toBe('installed');
    expect(first.dir).toBe(path.join(to, 'pdf-tools'));
    await expectSameFiles(first.dir, path.join(tmp, 'skills', 'pdf-tools'));
    const manifest = JSON.parse(await readFile(path.join(to, MANIFEST), 'utf8'));
    expect(manifest.skills['pdf-tools'].digest).toBe(first.digest);
    expect((await readdir(to)).sort()).toEqual([MANIFEST, 'pdf-tools'].sort()); // no staging folders left

    const before = feed.requests.length;
    const again = await install(feed.url, 'pdf-tools', { to });
    expect(again.action).toBe('unchanged');
    expect(feed.requests.slice(before).map((r) => r.path)).toEqual(['/feed/v1/index.json']);
  });

  it('updates only when the published digest changed, and says from what to what', async () => {
    const skills = path.join(tmp, 'skills-v2');
    await writeSkills(skills, [{ name: 'pdf-tools', files: { 'scripts/extract.py': 'print(1)\n' } }]);
    await publish(skills, path.join(tmp, 'dist-v2'), 'acme');
    const v2 = await serveDir(path.join(tmp, 'dist-v2'));
    try {
      const to = freshTarget();
      const first = await install(feed.url, 'pdf-tools', { to });
      const second = await install(v2.url, 'pdf-tools', { to });
      expect(second).toMatchObject({ action: 'updated', previousDigest: first.digest });
      expect(second.digest).not.toBe(first.digest);
      await expectSameFiles(second.dir, path.join(skills, 'pdf-tools'));
    } finally {
      await v2.close();
    }
  });

  it("installs from a skill's page URL, as the address bar shows it: the site is found above it", async () => {
    const to = path.join(tmp, 'from-page');
    const result = await install(new URL('/skills/pdf-tools/', feed.url).href, 'pdf-tools', { to });
    expect(result.action).toBe('installed');
    const filePage = new URL('/skills/pdf-tools/files/scripts/extract.py/', feed.url).href;
    const fromFile = await install(filePage, 'other-skill', { to });
    expect(fromFile.action).toBe('installed');
  });

  it('installs from a built folder as well as from a URL', async () => {
    const to = freshTarget();
    const result = await install(path.join(tmp, 'dist'), 'other-skill', { to });
    expect(result.action).toBe('installed');
    await expectSameFiles(result.dir, path.join(tmp, 'skills', 'other-skill'));
  });

  it('refuses a file whose bytes do not match the feed, and writes nothing', async () => {
    const dist = path.join(tmp, 'dist-tampered');
    await publish(path.join(tmp, 'skills'), dist, 'acme');
    const script = path.join(dist, 'feed', 'v1', 'files', 'pdf-tools', 'scripts', 'extract.py');
    await writeFile(script, 'print(2)\n'); // same size, other bytes
    const to = freshTarget();
    await expect(install(dist, 'pdf-tools', { to })).rejects.toThrow(
      /files\/pdf-tools\/scripts\/extract.py: sha256 [0-9a-f]{64} does not match the sha256 the feed lists for it/,
    );
    await writeFile(script, 'import os\n'); // other size
    await expect(install(dist, 'pdf-tools', { to })).rejects.toThrow(
      'files/pdf-tools/scripts/extract.py: 10 bytes, but the feed lists 9',
    );
    expect(existsSync(path.join(to, 'pdf-tools'))).toBe(false);
  });

  it('does not overwrite a skill edited by hand unless forced', async () => {
    const to = freshTarget();
    const first = await install(feed.url, 'other-skill', { to });
    await writeFile(path.join(first.dir, 'SKILL.md'), 'my edits');
    await expect(install(feed.url, 'other-skill', { to })).rejects.toThrow(
      'was changed since it was installed; use --force',
    );
    expect(await readFile(path.join(first.dir, 'SKILL.md'), 'utf8')).toBe('my edits');
    expect((await install(feed.url, 'other-skill', { to, force: true })).action).toBe('updated');
  });

  it("installs from the build's own .well-known index (its .tar.gz archive) to the same files", async () => {
    const result = await install(`${feed.url}/.well-known/agent-skills/index.json`, 'pdf-tools', { to: freshTarget() });
    expect(result.from).toBe(`${feed.url}/.well-known/agent-skills/index.json`);
    await expectSameFiles(result.dir, path.join(tmp, 'skills', 'pdf-tools'));
  });

  it('names a missing skill', async () => {
    await expect(install(feed.url, 'no-such-skill', { to: freshTarget() })).rejects.toThrow(
      `no skill "no-such-skill" in ${feed.url}/feed/v1/index.json`,
    );
    await expect(install(feed.url, 'pdftools', { to: freshTarget() })).rejects.toThrow(
      `no skill "pdftools" in ${feed.url}/feed/v1/index.json (did you mean "pdf-tools"?)`,
    );
  });
});

describe('install from a .well-known/agent-skills index', () => {
  it('installs a skill-md skill', async () => {
    const result = await install(site.url, 'md-only', { to: freshTarget() });
    expect(await readdir(result.dir)).toEqual(['SKILL.md']);
    expect(await readFile(path.join(result.dir, 'SKILL.md'), 'utf8')).toBe(skillMdText('md-only'));
  });

  it.each([['tar-skill'], ['zip-skill']])('unpacks the %s archive to exactly its files', async (name) => {
    const result = await install(site.url, name, { to: freshTarget() });
    expect(await listTree(result.dir)).toEqual(['SKILL.md', 'assets/blob.bin', 'scripts/run.sh']);
    expect((await readFile(path.join(result.dir, 'assets/blob.bin'))).equals(Buffer.from(BINARY))).toBe(true);
    expect(result.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await install(site.url, name, { to: path.dirname(result.dir) })).action).toBe('unchanged');
  });

  it('installs from a site folder whose index uses root-relative URLs', async () => {
    const result = await install(path.join(tmp, 'site'), 'zip-skill', { to: freshTarget() });
    expect(await listTree(result.dir)).toEqual(['SKILL.md', 'assets/blob.bin', 'scripts/run.sh']);
    const direct = await install(path.join(tmp, 'site', '.well-known', 'agent-skills', 'index.json'), 'md-only', {
      to: freshTarget(),
    });
    expect(direct.action).toBe('installed');
  });

  it('skips a path that answers with an HTML page and finds the discovery index', async () => {
    site.override(
      '/feed/v1/index.json',
      (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>app</p>'),
    );
    expect((await install(site.url, 'md-only', { to: freshTarget() })).action).toBe('installed');
  });

  it('accepts entries written as "./SKILL.md"', async () => {
    const result = await install(site.url, 'dot-slash', { to: freshTarget() });
    expect(await readdir(result.dir)).toEqual(['SKILL.md']);
  });

  it.each([
    ['tar-dotdot', '"../../escaped.txt": path has a ".." segment'],
    ['tar-absolute', 'path is absolute'],
    ['tar-symlink', '"passwd" is a symlink to "/etc/passwd"'],
    ['tar-hardlink', '"h" is a link'],
    ['zip-dotdot', '"../escaped.txt": path has a ".." segment'],
    ['zip-symlink', '"passwd" is a symlink'],
    ['wrapped', 'archives must not have a wrapper folder'],
    ['bad-digest', 'but the index lists 0000'],
    ['misnamed', 'SKILL.md names the skill "something-else", not "misnamed"'],
  ])('refuses %s and writes nothing', async (name, why) => {
    const to = freshTarget();
    await expect(install(site.url, name, { to })).rejects.toThrow(why);
    expect(existsSync(to) ? await listTree(path.dirname(to)) : []).toEqual([]);
    expect(existsSync(path.join(tmp, 'escaped.txt'))).toBe(false);
    expect(existsSync('/tmp/skillpress-absolute.txt')).toBe(false);
  });
});

describe('archive limits', () => {
  it('stops unpacking a compression bomb at --max-bytes', async () => {
    const bomb = await tarGz([
      { name: 'SKILL.md', data: skillMdText('bomb') },
      { name: 'zeros.bin', data: new Uint8Array(20_000_000) },
    ]);
    const zipBomb = zip([
      { name: 'SKILL.md', data: skillMdText('zip-bomb') },
      { name: 'zeros.bin', data: new Uint8Array(20_000_000) },
    ]);
    const dir = path.join(tmp, 'bomb-site');
    await writeDiscovery(dir, [
      { name: 'bomb', type: 'archive', file: 'bomb.tar.gz', bytes: bomb },
      { name: 'zip-bomb', type: 'archive', file: 'zip-bomb.zip', bytes: zipBomb },
    ]);
    expect(bomb.length).toBeLessThan(1_000_000);
    for (const name of ['bomb', 'zip-bomb']) {
      await expect(install(dir, name, { to: freshTarget(), limits: { maxBytes: 1_000_000 } })).rejects.toThrow(
        'archive unpacks to more than 1000000 bytes',
      );
    }
  });
});

describe('skillpress install (CLI)', () => {
  it('installs into the agent folder given by --agent, and says when it is up to date', async () => {
    const cwd = path.join(tmp, 'project');
    await mkdir(cwd, { recursive: true });
    const cli = (...args: string[]) =>
      run(NODE, [path.join(ROOT, 'scripts', 'skillpress.mjs'), 'install', ...args], { cwd });
    const first = await cli(site.url, 'tar-skill', '--agent', 'claude');
    expect(first.stdout).toMatch(/^installed tar-skill into \.claude\/skills\/tar-skill \(sha256:[0-9a-f]{64}\)\n$/);
    expect(existsSync(path.join(cwd, '.claude', 'skills', 'tar-skill', 'SKILL.md'))).toBe(true);
    const second = await cli(site.url, 'tar-skill', '--agent', 'claude');
    expect(second.stdout).toMatch(/^tar-skill is up to date in \.claude\/skills\/tar-skill/);
    await writeFile(path.join(cwd, '.claude', 'skills', 'tar-skill', 'SKILL.md'), 'my edits');
    const forced = await cli(site.url, 'tar-skill', '--agent', 'claude', '--force');
    // The same published version put back: not an update "from sha256:X to sha256:X".
    expect(forced.stdout).toMatch(/^reinstalled tar-skill in \.claude\/skills\/tar-skill \(sha256:[0-9a-f]{64}\)\n$/);
    const refused = await cli(site.url, 'tar-symlink').catch((e: { code: number; stderr: string }) => e);
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stderr: string }).stderr).toContain('symlink');
  });

  it('maps --agent and --global to the folders agents read', () => {
    const where = { cwd: '/p', env: {}, home: '/home/u' };
    expect(skillsFolder('agents', where)).toBe('/p/.agents/skills');
    expect(skillsFolder('claude', where)).toBe('/p/.claude/skills');
    expect(skillsFolder('claude', { ...where, global: true })).toBe('/home/u/.claude/skills');
    expect(skillsFolder('codex', { ...where, global: true, env: { CODEX_HOME: '/opt/codex' } })).toBe(
      '/opt/codex/skills',
    );
    expect(skillsFolder('opencode', { ...where, global: true })).toBe('/home/u/.config/opencode/skills');
    expect(() => skillsFolder('nope', where)).toThrow('unknown agent "nope"');
  });
});
