/**
 * Install's edge cases (issue 11, row 9 and its should-fix list), against HTTP servers and folders
 * made by the test: what the build publishes installs (names like `..notes.md` compare by
 * segment), archives from other writers install (Python's zipfile), the build's ignore rules
 * hold for archives, a feed that lists a path twice or files that cannot form a tree is refused,
 * an oversized or deeply nested index.json is refused before it is parsed, and every refusal says
 * what and where without the staging folder's path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { install } from '../../src/install/index.ts';
import { IntegrityError, InvalidInputError, NotFoundError, UnsafePathError } from '../../src/lib/errors.ts';
import { publish } from '../federate/helpers/feed.ts';
import { loadPreviousFeed, writeFeed } from '../../src/emit/feed/index.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import { BAD_PORTS, serveDir, type TestServer } from '../federate/helpers/server.ts';
import { loadSkills, tempDir, writeSkills } from '../federate/helpers/skills.ts';
import { addFeedFiles, listTree } from '../federate/helpers/tamper.ts';
import { skillMdText, tarGz, writeDiscovery, zip } from './helpers.ts';

const DOTTED = {
  '..notes.md': 'two dots\n',
  '...': 'three dots\n',
  '..txt': 'dots and txt\n',
  'sub/..hidden/x.md': 'nested\n',
};

let tmp: string;
let feed: TestServer;
let n = 0;
const target = () => path.join(tmp, `target-${++n}`);

beforeAll(async () => {
  tmp = await tempDir('install-edges');
  await writeSkills(path.join(tmp, 'skills'), [
    { name: 'dotted', files: DOTTED },
    { name: 'twice' },
    { name: 'lost-file', files: { 'data.txt': 'here\n' } },
    { name: 'constructor' },
  ]);
  await publish(path.join(tmp, 'skills'), path.join(tmp, 'dist'), 'acme');
  await addFeedFiles(path.join(tmp, 'dist'), 'twice', { 'SKILL.md': 'a second SKILL.md\n' });
  await rm(path.join(tmp, 'dist', 'feed', 'v1', 'files', 'lost-file', 'data.txt'));
  feed = await serveDir(path.join(tmp, 'dist'));
});

afterAll(async () => {
  await feed?.close();
  await rm(tmp, { recursive: true, force: true });
});

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: Error) => e,
  );

describe('a skill named like a member of every object', () => {
  it('"constructor": a folder made by hand is not taken for an earlier install', async () => {
    const to = target();
    await mkdir(path.join(to, 'constructor'), { recursive: true });
    await writeFile(path.join(to, 'constructor', 'SKILL.md'), 'mine\n');
    const refused = await rejection(install(feed.url, 'constructor', { to }));
    expect(refused).toBeInstanceOf(InvalidInputError);
    expect(refused.message).toContain('was not installed by skillpress; use --force');
    const forced = await install(feed.url, 'constructor', { to, force: true });
    expect(forced.action).toBe('updated');
    expect(await install(feed.url, 'constructor', { to })).toMatchObject({ action: 'unchanged' });
  });
});

describe('what the build publishes installs (row 9)', () => {
  it.each([
    ['the feed', () => feed.url],
    ['the discovery .tar.gz', () => `${feed.url}/.well-known/agent-skills/index.json`],
    ['a built folder', () => path.join(tmp, 'dist')],
  ])('"..notes.md", "...", "..txt" from %s', async (_label, source) => {
    const result = await install(source(), 'dotted', { to: target() });
    expect(await listTree(result.dir)).toEqual(
      ['...', '..notes.md', '..txt', 'SKILL.md', path.join('sub', '..hidden', 'x.md')].sort(),
    );
    for (const [p, text] of Object.entries(DOTTED))
      expect(await readFile(path.join(result.dir, ...p.split('/')), 'utf8')).toBe(text);
  });
});

describe('archives from other writers', () => {
  it("installs a zip written by Python's zipfile.writestr (mode 0600, no file-type bits)", async () => {
    const site = path.join(tmp, 'py-site');
    const bytes = zip([
      { name: 'SKILL.md', data: skillMdText('py-zip'), mode: 0o600 },
      { name: 'scripts/run.py', data: 'print(1)\n', mode: 0o600 },
    ]);
    await writeDiscovery(site, [{ name: 'py-zip', type: 'archive', file: 'py-zip.zip', bytes }]);
    const result = await install(site, 'py-zip', { to: target() });
    expect(await listTree(result.dir)).toEqual(['SKILL.md', path.join('scripts', 'run.py')]);
  });

  it('leaves out what the build ignores (.git/, __pycache__/, .DS_Store) and says so', async () => {
    const site = path.join(tmp, 'git-site');
    const bytes = await tarGz([
      { name: 'SKILL.md', data: skillMdText('with-git') },
      { name: '.git/config', data: '[core]\n' },
      { name: 'scripts/__pycache__/x.cpython-312.pyc', data: 'bytecode' },
      { name: '.DS_Store', data: 'finder' },
      { name: 'scripts/x.py', data: 'print(1)\n' },
    ]);
    await writeDiscovery(site, [{ name: 'with-git', type: 'archive', file: 'with-git.tar.gz', bytes }]);
    const result = await install(site, 'with-git', { to: target() });
    expect(await listTree(result.dir)).toEqual(['SKILL.md', path.join('scripts', 'x.py')]);
    expect(result.missing.map((m) => m.path).sort()).toEqual([
      '.DS_Store',
      '.git/config',
      'scripts/__pycache__/x.cpython-312.pyc',
    ]);
  });
});

describe('refusals say what and where', () => {
  it('a feed listing one path twice is refused, as federation refuses it', async () => {
    const to = target();
    const err = await rejection(install(feed.url, 'twice', { to }));
    expect(err).toBeInstanceOf(UnsafePathError);
    expect(err.message).toContain('path "SKILL.md" is listed twice');
    expect(existsSync(to) ? await listTree(to) : []).toEqual([]);
  });

  it('an archive whose files cannot form a tree, or whose path is too long for the file system, without the staging path', async () => {
    const site = path.join(tmp, 'tree-site');
    const long = Array.from({ length: 16 }, (_, i) => `${i}`.padEnd(254, 'x')).join('/');
    await writeDiscovery(site, [
      {
        name: 'clash',
        type: 'archive',
        file: 'clash.zip',
        bytes: zip([
          { name: 'SKILL.md', data: skillMdText('clash') },
          { name: 'a', data: '1' },
          { name: 'a/b', data: '2' },
        ]),
      },
      {
        name: 'deep',
        type: 'archive',
        file: 'deep.tar.gz',
        bytes: await tarGz([
          { name: 'SKILL.md', data: skillMdText('deep') },
          { name: long, data: 'far down\n' },
        ]),
      },
    ]);
    const clash = await rejection(install(site, 'clash', { to: target() }));
    expect(clash.message).toContain('path "a" is a file and also the folder of "a/b"');
    const deep = await rejection(install(site, 'deep', { to: target() }));
    expect(deep).toBeInstanceOf(InvalidInputError);
    expect(deep.message).toMatch(/^cannot install "deep\/0x+\/.*": its path is too long for this file system$/);
    expect(`${clash.message} ${deep.message}`).not.toMatch(/skillpress-new|ENAMETOOLONG|EEXIST/);
  });

  it('a 52 MB deeply nested index.json is refused before it is parsed, in bounded memory', async () => {
    const site = path.join(tmp, 'nested-site');
    await mkdir(path.join(site, '.well-known', 'agent-skills'), { recursive: true });
    await writeFile(
      path.join(site, '.well-known', 'agent-skills', 'index.json'),
      '['.repeat(26_000_000) + ']'.repeat(26_000_000),
    );
    const server = await serveDir(site);
    try {
      const peakBefore = process.resourceUsage().maxRSS;
      for (const source of [site, server.url]) {
        const err = await rejection(install(source, 'anything', { to: target() }));
        expect(err.message, source).toMatch(/index\.json.*(over the 16 MiB limit|passed the 16 MiB limit)/);
      }
      const small = path.join(tmp, 'small-nested');
      await mkdir(path.join(small, '.well-known', 'agent-skills'), { recursive: true });
      await writeFile(
        path.join(small, '.well-known', 'agent-skills', 'index.json'),
        '{"skills":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}',
      );
      expect((await rejection(install(small, 'anything', { to: target() }))).message).toContain(
        'nested more than 64 levels deep',
      );
      expect(process.resourceUsage().maxRSS - peakBefore).toBeLessThan(400 * 1024); // KiB: far from the 2.7 GB it took
    } finally {
      await server.close();
    }
  });

  it('a version asked of a skill that publishes none says to leave the version out', async () => {
    const err = await rejection(install(feed.url, 'dotted@2', { to: target() }));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toBe(
      `skill "dotted" has no published version "2" in ${feed.url}/feed/v1/index.json: it publishes no versions; install "dotted" without @2`,
    );
  });

  it('a 404 says what was not found and where', async () => {
    const fromUrl = await rejection(install(feed.url, 'lost-file', { to: target() }));
    expect(fromUrl).toBeInstanceOf(NotFoundError);
    expect(fromUrl.message).toBe(
      `skill "lost-file" is listed in ${feed.url}/feed/v1/index.json, but one of its parts is missing: ${feed.url}/feed/v1/files/lost-file/data.txt: not found (HTTP 404)`,
    );
    const fromFolder = await rejection(install(path.join(tmp, 'dist'), 'lost-file', { to: target() }));
    expect(fromFolder.message).toBe(
      `skill "lost-file" is listed in ${new URL(`file://${path.join(tmp, 'dist', 'feed', 'v1', 'index.json')}`).href}, but one of its parts is missing: files/lost-file/data.txt: no such file in the feed at ${path.join(tmp, 'dist', 'feed', 'v1')}`,
    );

    const site = path.join(tmp, 'missing-archive');
    await writeDiscovery(site, [
      {
        name: 'gone',
        type: 'archive',
        file: 'gone.tar.gz',
        bytes: await tarGz([{ name: 'SKILL.md', data: skillMdText('gone') }]),
      },
    ]);
    await rm(path.join(site, '.well-known', 'agent-skills', 'gone.tar.gz'));
    const server = await serveDir(site);
    try {
      const err = await rejection(install(server.url, 'gone', { to: target() }));
      expect(err.message).toBe(
        `the archive of "gone" listed in ${server.url}/.well-known/agent-skills/index.json is missing: ${server.url}/.well-known/agent-skills/gone.tar.gz: not found (HTTP 404)`,
      );
    } finally {
      await server.close();
    }
  });

  it("installs from the site's feed page (…/feed/) and the feed folder, as mcp --feed reads them", async () => {
    for (const url of [`${feed.url}/feed/`, `${feed.url}/feed/v1/`]) {
      const ok = await install(url, 'constructor', { to: target() });
      expect(await readFile(path.join(ok.dir, 'SKILL.md'), 'utf8'), url).toContain('name: constructor');
    }
  });

  it('a source on a port Node\'s fetch refuses (6666…) says so and how to fix it, not just "bad port"', async () => {
    const blocked = await serveDir(path.join(tmp, 'dist'), BAD_PORTS);
    try {
      const err = await rejection(install(blocked.url, 'dotted', { to: target() }));
      expect(err.message).toBe(
        `${blocked.url}/feed/v1/index.json: Node's fetch refuses port ${new URL(blocked.url).port} (a port browsers and Node block); serve it on another port`,
      );
      expect(blocked.requests).toEqual([]);
    } finally {
      await blocked.close();
    }
  });

  it('no index under a URL: the error names every place tried', async () => {
    const err = await rejection(install(`${feed.url}/nothing/`, 'dotted', { to: target() }));
    expect(err).toBeInstanceOf(NotFoundError);
    for (const tried of ['feed/v1/index.json', '.well-known/agent-skills/index.json', 'index.json'])
      expect(err.message).toContain(`${feed.url}/nothing/${tried}`);
  });

  it('a skill the feed has removed: the error says when, from its tombstone in changes.json', async () => {
    const skills = path.join(tmp, 'tombstone-skills');
    await writeSkills(skills, [{ name: 'kept' }, { name: 'retired' }]);
    const config = SkillpressConfig.parse({ registry: { name: 'acme' } });
    const first = path.join(tmp, 'tombstone-dist-1');
    await writeFeed(await loadSkills(skills, 'acme'), { outDir: first, config, sourceDateEpoch: 1_767_225_600 });
    await rm(path.join(skills, 'retired'), { recursive: true });
    const second = path.join(tmp, 'tombstone-dist-2');
    const previous = await loadPreviousFeed(first);
    await writeFeed(await loadSkills(skills, 'acme'), {
      outDir: second,
      config,
      previous,
      sourceDateEpoch: 1_767_312_000,
    });
    const server = await serveDir(second);
    try {
      const err = await rejection(install(server.url, 'retired', { to: target() }));
      expect(err).toBeInstanceOf(NotFoundError);
      expect(err.message).toBe(
        `no skill "retired" in ${server.url}/feed/v1/index.json: it was removed from this catalog at 2026-01-02T00:00:00.000Z`,
      );
    } finally {
      await server.close();
    }
  });

  it('bytes that differ from the digest are an IntegrityError', async () => {
    const site = path.join(tmp, 'bad-digest');
    await writeDiscovery(site, [
      {
        name: 'bad',
        type: 'skill-md',
        file: 'bad/SKILL.md',
        bytes: Buffer.from(skillMdText('bad')),
        digest: `sha256:${'1'.repeat(64)}`,
      },
    ]);
    expect(await rejection(install(site, 'bad', { to: target() }))).toBeInstanceOf(IntegrityError);
  });
});

describe('installing over what is there', () => {
  it('the same skill from the feed, then from the discovery index, is unchanged (the same bytes)', async () => {
    const to = target();
    expect((await install(feed.url, 'dotted', { to })).action).toBe('installed');
    const again = await install(new URL('/.well-known/agent-skills/index.json', feed.url).href, 'dotted', { to });
    expect(again.action).toBe('unchanged');
  });

  it('--force over a folder skillpress did not install lists the files it discards', async () => {
    const to = target();
    await mkdir(path.join(to, 'dotted'), { recursive: true });
    await writeFile(path.join(to, 'dotted', 'SKILL.md'), 'mine\n');
    await writeFile(path.join(to, 'dotted', 'my-notes.md'), 'keep me\n');
    await writeFile(path.join(to, 'dotted', '..notes.md'), DOTTED['..notes.md']);
    const forced = await install(feed.url, 'dotted', { to, force: true });
    expect(forced.discarded).toEqual(['SKILL.md', 'my-notes.md']);
    // An update of an install of its own discards nothing of the user's: no list.
    expect((await install(feed.url, 'dotted', { to, force: true })).discarded).toBeUndefined();
  });
});
