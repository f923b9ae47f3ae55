/**
 * The feed reader over a folder and over HTTP on 127.0.0.1: every part verified, and a hostile
 * feed URL (issue 11, row 5) bounded like federation and install: an index.json that streams
 * forever or is a gzip bomb stops at the cap, a redirect to another host is refused, and a
 * refresh that fails keeps the cached feed serving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { openFeed, openFeedStore, RemoteStore } from '../../src/feed-reader/index.ts';
import { IntegrityError, NetworkError, NotFoundError, UnsafePathError, errorMessage } from '../../src/lib/errors.ts';
import { publish } from '../federate/helpers/feed.ts';
import { serveDir, type Handler, type TestServer } from '../federate/helpers/server.ts';
import { tempDir, writeSkills } from '../federate/helpers/skills.ts';
import { editSkillJson } from '../federate/helpers/tamper.ts';
import { endless, gzipBomb, serveBomb } from '../helpers/hostile-http.ts';
import { replaceFile } from '../helpers/replace-file.ts';

let tmp: string;
let dist: string;
let server: TestServer;
let bomb: Buffer;
let n = 0;
const cacheDir = () => path.join(tmp, `cache-${++n}`);

beforeAll(async () => {
  tmp = await tempDir('feed-reader');
  await writeSkills(path.join(tmp, 'skills'), [
    { name: 'pdf-tools', files: { 'scripts/run.sh': '#!/bin/sh\necho hi\n', 'a b/#1.txt': 'odd name\n' } },
    { name: 'csv-clean' },
  ]);
  dist = path.join(tmp, 'dist');
  await publish(path.join(tmp, 'skills'), dist, 'acme');
  server = await serveDir(dist);
  bomb = await gzipBomb(256);
});

afterAll(async () => {
  await server?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('reading a feed', () => {
  it('from a build folder, a feed folder or a URL: the same skills, every file verified', async () => {
    const original = await readFile(path.join(tmp, 'skills', 'pdf-tools', 'a b', '#1.txt'));
    const urls = [server.url, `${server.url}/feed/v1/index.json`, `${server.url}/feed/v1/`, `${server.url}/feed/`];
    for (const location of [dist, path.join(dist, 'feed', 'v1'), ...urls]) {
      const reader = await openFeed(location, { cacheDir: cacheDir() });
      expect(
        reader.index.skills.map((s) => s.id),
        location,
      ).toEqual(['csv-clean', 'pdf-tools']);
      expect((await reader.cards()).skills.map((c) => c.id)).toEqual(['csv-clean', 'pdf-tools']);
      const { skill, files } = await reader.readSkill('pdf-tools');
      expect(skill.card.registry).toBe('acme');
      expect(files.find((f) => f.file.path === 'a b/#1.txt')!.bytes!.equals(original)).toBe(true);
      await expect(reader.readSkill('nope')).rejects.toThrow(NotFoundError);
    }
  });

  it('says where no feed was found', async () => {
    await expect(openFeed(path.join(tmp, 'skills'))).rejects.toThrow(/no feed at .*skills: expected .*index\.json/);
    await expect(openFeed(`${server.url}/nowhere/`, { cacheDir: cacheDir() })).rejects.toThrow(NotFoundError);
  });

  it('names the URL given when nothing answers there (mcp --feed, --previous), with the index URL tried', async () => {
    const gone = await serveDir(dist);
    await gone.close();
    const err = await openFeedStore(`${gone.url}/feed/`, { cacheDir: cacheDir() }).catch((e: unknown) => e);
    expect(err).toMatchObject({ rule: 'network', status: undefined });
    expect(errorMessage(err)).toBe(
      `${gone.url}/feed/ could not be reached (${gone.url}/feed/feed/v1/index.json: ECONNREFUSED)`,
    );
  });

  it('refuses a file whose bytes differ, a path that leaves the feed, and files that cannot form a tree', async () => {
    const copy = path.join(tmp, 'tampered');
    await publish(path.join(tmp, 'skills'), copy, 'acme');
    await replaceFile(path.join(copy, 'feed/v1/files/pdf-tools/scripts/run.sh'), '#!/bin/sh\nrm -rf\n');
    let reader = await openFeed(copy);
    await expect(reader.readSkill('pdf-tools')).rejects.toThrow(IntegrityError);

    await editSkillJson(copy, 'pdf-tools', (skill) => void (skill.files[0].url = 'https://evil.example/x'));
    reader = await openFeed(copy);
    await expect(reader.readSkill('pdf-tools')).rejects.toMatchObject({ rule: 'leaves-feed' });

    await editSkillJson(
      copy,
      'pdf-tools',
      (skill) => void skill.files.push({ ...skill.files[1], path: 'scripts/run.sh/inner' }),
    );
    reader = await openFeed(copy);
    const err = await reader.readSkill('pdf-tools').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsafePathError);
    expect(errorMessage(err)).toContain(
      'path "scripts/run.sh" is a file and also the folder of "scripts/run.sh/inner"',
    );
  });
});

describe('a hostile feed URL (issue 11, row 5)', () => {
  const expectRefused = async (location: string, rule: string, text: string): Promise<void> => {
    const started = Date.now();
    const err = await openFeedStore(location, { cacheDir: cacheDir(), cacheFirst: true }).catch((e: unknown) => e);
    expect(err, String(err)).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).rule).toBe(rule);
    expect(errorMessage(err)).toContain(text);
    expect(Date.now() - started).toBeLessThan(15_000);
  };

  it('an index.json that streams forever stops at the index limit, and the connection is closed', async () => {
    const forever = endless();
    server.override('/forever/feed/v1/index.json', forever.handler);
    await expectRefused(`${server.url}/forever/`, 'too-large', 'body passed the 16 MiB limit (the index.json limit)');
    await expect.poll(() => forever.closed()).toBe(true);
  });

  it('an index.json that is a gzip bomb stops at the limit, counted on the unpacked bytes', async () => {
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    server.override('/bomb/feed/v1/index.json', serveBomb(bomb));
    await expectRefused(`${server.url}/bomb/`, 'too-large', 'body passed the 16 MiB limit');
  });

  it('a redirect to another host is refused', async () => {
    const other = server.url.replace('127.0.0.1', 'localhost');
    server.override(
      '/moved/feed/v1/index.json',
      (_req, res) => void res.writeHead(302, { location: `${other}/feed/v1/index.json` }).end(),
    );
    await expectRefused(`${server.url}/moved/`, 'redirect', `redirect to ${other}/feed/v1/index.json refused`);
  });

  it('a refresh that fails keeps the cached feed: not replaced in memory or on disk', async () => {
    const dir = cacheDir();
    const url = `${server.url}/feed/v1/index.json`;
    const store = (await openFeedStore(server.url, { cacheDir: dir, cacheFirst: true })) as RemoteStore;
    const before = await store.readIndex();
    const answers: Array<[string, Handler]> = [
      ['a gzip bomb', serveBomb(bomb)],
      [
        'not a feed',
        (_req, res) => void res.writeHead(200, { etag: '"new"' }).end('{"feed_version":"1","skills":"none"}'),
      ],
      ['an error status', (_req, res) => void res.writeHead(500).end()],
    ];
    for (const [label, handler] of answers) {
      server.override('/feed/v1/index.json', handler);
      await expect(store.refresh(), label).rejects.toThrow();
      expect(await store.readIndex(), label).toEqual(before);
      const reopened = new RemoteStore(url, { cacheDir: dir });
      await reopened.open();
      expect(await reopened.readIndex(), label).toEqual(before);
    }
    server.override('/feed/v1/index.json', (_req, res) => void res.end(before.text));
    expect(await store.refresh()).toBe(false);
  });
});
