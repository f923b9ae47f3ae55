/**
 * Reading feeds: path checks (nothing outside the feed is read), digests, and remote feeds served
 * by a real HTTP server on 127.0.0.1 — cached on disk, revalidated with conditional requests,
 * working offline, and polled for changes by a running `skillpress mcp`.
 */
import { createHash } from 'node:crypto';
import { cp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FeedCatalog } from '../../src/mcp/catalog.ts';
import { readVerifiedText } from '../../src/feed-reader/read-text.ts';
import { RemoteStore } from '../../src/feed-reader/remote-store.ts';
import { IntegrityError } from '../../src/lib/errors.ts';
import { DirStore, openFeedStore, resolveFeedPath } from '../../src/feed-reader/index.ts';
import { UnsafePathError } from '../../src/lib/errors.ts';
import { parseSkillUri } from '../../src/mcp/uris.ts';
import { buildFeed, CLI, connect, fixtureFeed, NODE, PNG, ROOT, writeSkills, type FixtureFeed } from './helpers.ts';
import { endless, gzipBomb, serveBomb } from '../helpers/hostile-http.ts';
import { replaceFile } from '../helpers/replace-file.ts';

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

describe('feed paths', () => {
  test('relative URLs resolve inside the feed; anything else is refused', () => {
    expect(resolveFeedPath('', 'cards.json')).toBe('cards.json');
    expect(resolveFeedPath('skills/a.json', '../files/a/scripts/x%20y.py')).toBe('files/a/scripts/x y.py');
    // URL resolution clamps `..` at the feed root: the result is still a path inside the feed.
    expect(resolveFeedPath('skills/a.json', '../../../etc/passwd')).toBe('etc/passwd');
    for (const bad of [
      '/etc/passwd',
      'https://evil.example/x',
      '//evil.example/x',
      'file:///etc/passwd',
      'a%2F..%2F..%2Fb',
      'a\\..\\b',
      'a/%00',
      '',
    ]) {
      expect(() => resolveFeedPath('', bad), bad).toThrow(UnsafePathError);
    }
  });

  test('skill:// URIs decode per segment and refuse traversal', () => {
    expect(parseSkillUri('skill://pdf/scripts/x%20y.py')).toEqual(['pdf', 'scripts', 'x y.py']);
    for (const bad of [
      'skill://pdf/../x',
      'skill://pdf/%2e%2e/x',
      'skill://pdf/a%2fb',
      'skill://pdf//x',
      'skill://pdf/x?y',
      'file:///etc/passwd',
      'skill://pdf/%E0%A4%A',
    ]) {
      expect(() => parseSkillUri(bad), bad).toThrow(UnsafePathError);
    }
  });
});

describe('local feeds', () => {
  let tmp: FixtureFeed;
  let feedDir: string;

  beforeAll(async () => {
    tmp = await fixtureFeed();
    feedDir = tmp.feed;
  });
  afterAll(() => tmp?.remove());

  test('--feed takes the build folder or the feed folder', async () => {
    expect((await openFeedStore(path.join(tmp.dir, 'dist'), { cacheFirst: true })).location).toBe(feedDir);
    expect((await openFeedStore(feedDir, { cacheFirst: true })).location).toBe(feedDir);
    await expect(openFeedStore(path.join(tmp.dir, 'skills'), { cacheFirst: true })).rejects.toThrow(
      /no feed at .*run `skillpress build` first/,
    );
  });

  test('pointed at a build that shows imported skills only on its site, it says where they are', async () => {
    const dist = path.join(tmp.dir, 'dist');
    const own = await connect(dist, 'legacy');
    try {
      await own.client.callTool({ name: 'skills_list', arguments: {} });
      await expect.poll(() => own.stderr(), { timeout: 10_000 }).toMatch(/serving 3 skill\(s\)/);
      expect(own.stderr()).not.toContain('imported from peers');
    } finally {
      await own.close();
    }
    // The catalog a build with peers and federation.reexport off writes beside its feed.
    await cp(feedDir, path.join(dist, 'catalog', 'v1'), { recursive: true });
    const hinted = await connect(dist, 'legacy');
    try {
      const view = path.join(dist, 'catalog', 'v1');
      await expect
        .poll(() => hinted.stderr(), { timeout: 10_000 })
        .toContain(`${view} also holds the skills imported from peers`);
      expect(hinted.stderr()).toContain(`--feed ${view}`);
    } finally {
      await hinted.close();
      await rm(path.join(dist, 'catalog'), { recursive: true });
    }
  });

  test('files are checked against the manifest digest, and a symlink out of the feed is never followed', async () => {
    const catalog = await FeedCatalog.load(new DirStore(feedDir));
    const card = catalog.requireCard('pdf-processing');
    expect((await catalog.file(card, 'assets/logo.png')).bytes.equals(PNG)).toBe(true);

    // Same bytes, but outside the feed: refused.
    const ocr = path.join(feedDir, 'files', 'pdf-processing', 'references', 'ocr.md');
    const outside = path.join(tmp.dir, 'outside.md');
    await writeFile(outside, await readFile(ocr));
    await rm(ocr);
    await symlink(outside, ocr);
    await expect(catalog.file(card, 'references/ocr.md')).rejects.toThrow(/outside the feed/);

    // Changed bytes: refused.
    const script = path.join(feedDir, 'files', 'pdf-processing', 'scripts', 'extract.py');
    await replaceFile(script, 'import os; os.system("rm -rf /")\n');
    await expect(catalog.file(card, 'scripts/extract.py')).rejects.toThrow(IntegrityError);
  });

  test('cards.json is checked against its digest, then card by card, with errors naming the field', async () => {
    const copy = path.join(tmp.dir, 'copy');
    await cp(feedDir, copy, { recursive: true });
    const cardsFile = path.join(copy, 'cards.json');
    const cards = JSON.parse(await readFile(cardsFile, 'utf8'));
    cards.skills[1].tokens = 'many';
    await writeFile(cardsFile, JSON.stringify(cards));
    await expect(FeedCatalog.load(new DirStore(copy))).rejects.toThrow(IntegrityError);

    const indexFile = path.join(copy, 'index.json');
    const index = JSON.parse(await readFile(indexFile, 'utf8'));
    index.parts.cards.sha256 = sha256(await readFile(cardsFile));
    await writeFile(indexFile, JSON.stringify(index));
    await expect(FeedCatalog.load(new DirStore(copy))).rejects.toThrow(/^cards\.json: skills\.1\.tokens: /);
  });

  test('big parts are read in chunks: text split across chunks decodes whole, and the digest covers every byte', async () => {
    // 3-byte characters straddle every 64 KiB chunk boundary.
    const text = JSON.stringify({ text: '€ skill ✓'.repeat(30_000) });
    const file = path.join(tmp.dir, 'big.json');
    await writeFile(file, text);
    expect(await readVerifiedText(file, sha256(text), 'big.json')).toBe(text);
    await expect(readVerifiedText(file, sha256(text + ' '), 'big.json')).rejects.toThrow(
      /big\.json: sha256 .* does not match/,
    );
  });
});

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Serves a folder over HTTP with ETags; counts requests and 304s. `hostile` answers chosen paths its own way. */
async function staticServer(root: string): Promise<{
  server: Server;
  url: string;
  hits: string[];
  notModified: () => number;
  tamper: Map<string, Buffer>;
  hostile: Map<string, Handler>;
}> {
  const hits: string[] = [];
  const tamper = new Map<string, Buffer>();
  const hostile = new Map<string, Handler>();
  let notModified = 0;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.push(url.pathname);
    const handler = hostile.get(url.pathname);
    if (handler) return handler(req, res);
    const file = path.join(root, ...decodeURIComponent(url.pathname).split('/').filter(Boolean));
    if (!file.startsWith(root)) return void res.writeHead(403).end();
    try {
      const bytes = tamper.get(url.pathname) ?? (await readFile(file));
      const etag = `"${sha256(bytes)}"`;
      if (req.headers['if-none-match'] === etag) {
        notModified++;
        return void res.writeHead(304, { etag }).end();
      }
      res
        .writeHead(200, {
          etag,
          'content-type': 'application/octet-stream',
          'last-modified': (await stat(file)).mtime.toUTCString(),
        })
        .end(bytes);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/`, hits, notModified: () => notModified, tamper, hostile };
}

const stop = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('remote feeds', () => {
  let tmp: FixtureFeed;
  let site: Awaited<ReturnType<typeof staticServer>>;
  let cacheDir: string;
  let skillsDir: string;
  let dist: string;

  beforeAll(async () => {
    tmp = await fixtureFeed();
    ({ skills: skillsDir, dist } = tmp);
    cacheDir = path.join(tmp.dir, 'cache');
    site = await staticServer(dist);
  });
  afterAll(async () => {
    if (site?.server.listening) await stop(site.server);
    await tmp?.remove();
  });

  test('a site URL is fetched, verified and cached; the next start revalidates with a conditional request', async () => {
    const store = (await openFeedStore(site.url, { cacheDir, cacheFirst: true })) as RemoteStore;
    expect(store.location).toBe(`${site.url}feed/v1/index.json`);
    const catalog = await FeedCatalog.load(store);
    expect(catalog.cards.map((c) => c.name)).toEqual(['expense-policy', 'pdf-processing', 'trino-debug']);
    const png = await catalog.file(catalog.requireCard('pdf-processing'), 'assets/logo.png');
    expect(png.bytes.equals(PNG)).toBe(true);

    // The next start opens from the cache without the network, then revalidates.
    const fetched = site.hits.length;
    const reopened = (await openFeedStore(site.url, { cacheDir, cacheFirst: true })) as RemoteStore;
    const again = await FeedCatalog.load(reopened);
    expect(site.hits.length).toBe(fetched);
    const before = site.notModified();
    expect(await reopened.refresh()).toBe(false);
    expect(site.notModified()).toBe(before + 1);
    await again.file(again.requireCard('pdf-processing'), 'assets/logo.png');
    expect(site.hits.length).toBe(fetched + 1); // only the revalidation: the file came from the cache, by digest
  });

  test('bytes that do not match the index digest are refused', async () => {
    const store = new RemoteStore(`${site.url}feed/v1/index.json`, { cacheDir: path.join(tmp.dir, 'other-cache') });
    await store.open();
    const catalog = await FeedCatalog.load(store);
    site.tamper.set('/feed/v1/files/trino-debug/tools.json', Buffer.from('[{"name":"evil"}]'));
    await expect(catalog.file(catalog.requireCard('trino-debug'), 'tools.json')).rejects.toThrow(IntegrityError);
    site.tamper.clear();
  });

  test('a hostile index.json (gzip bomb, endless body, redirect to another host) with nothing cached: the server exits 1 at once, naming the URL and the limit', async () => {
    const bomb = await gzipBomb(2048); // 2 GiB unpacked, about 2 MB on the wire
    const forever = endless();
    const other = site.url.replace('127.0.0.1', 'localhost');
    site.hostile.set('/bomb/feed/v1/index.json', serveBomb(bomb));
    site.hostile.set('/forever/feed/v1/index.json', forever.handler);
    site.hostile.set(
      '/away/feed/v1/index.json',
      (_req, res) => void res.writeHead(302, { location: `${other}feed/v1/index.json` }).end(),
    );
    for (const [where, why] of [
      ['bomb/', 'body passed the 16 MiB limit (the index.json limit); download stopped'],
      ['forever/', 'body passed the 16 MiB limit (the index.json limit); download stopped'],
      ['away/', `redirect to ${other}feed/v1/index.json refused: only redirects to 127.0.0.1`],
    ]) {
      const started = Date.now();
      const args = [CLI, 'mcp', '--feed', `${site.url}${where}`, '--cache-dir', path.join(tmp.dir, `hostile-${where}`)];
      const failed = await promisify(execFile)(NODE, args, { cwd: ROOT, timeout: 30_000 }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(failed, where).toMatchObject({ code: 1 });
      expect((failed as { stderr: string }).stderr, where).toContain(`${site.url}${where}feed/v1/index.json: ${why}`);
      expect(Date.now() - started, where).toBeLessThan(20_000);
    }
    expect(forever.closed()).toBe(true);
  });

  test('a refresh that fails (a gzip bomb, an endless body) keeps the cached feed serving', async () => {
    const dir = path.join(tmp.dir, 'cache-refresh');
    const first = await connect(site.url, 'legacy', ['--cache-dir', dir]);
    await first.client.callTool({ name: 'skills_list', arguments: {} });
    await first.close();
    site.hostile.set('/feed/v1/index.json', serveBomb(await gzipBomb(256)));
    const live = await connect(site.url, 'legacy', ['--cache-dir', dir, '--poll', '1']);
    try {
      await expect
        .poll(() => live.stderr(), { timeout: 10_000 })
        .toMatch(/offline: serving the cached feed \(.*16 MiB limit/);
      site.hostile.set('/feed/v1/index.json', endless().handler);
      const list = await live.client.callTool({ name: 'skills_list', arguments: {} });
      expect((list.structuredContent as { total: number }).total).toBe(3);
      await expect
        .poll(() => live.stderr().match(/offline: serving the cached feed/g)?.length ?? 0, { timeout: 10_000 })
        .toBeGreaterThan(1);
      const view = await live.client.callTool({ name: 'view_skill', arguments: { name: 'pdf-processing' } });
      expect(view.isError).toBeFalsy();
    } finally {
      site.hostile.clear();
      await live.close();
    }
  });

  test('skillpress mcp --feed <url> polls for changes, then starts and works offline from its cache', async () => {
    let changes = 0;
    const live = await connect(site.url, 'legacy', ['--cache-dir', cacheDir, '--poll', '1'], {
      listChanged: { resources: { autoRefresh: false, debounceMs: 0, onChanged: () => void changes++ } },
    });
    try {
      // The server has loaded the feed before it changes (it loads lazily, after the handshake).
      expect(
        ((await live.client.callTool({ name: 'skills_list', arguments: {} })).structuredContent as { total: number })
          .total,
      ).toBe(3);
      await writeSkills(skillsDir, {
        'csv-cleaner': {
          'SKILL.md': '---\nname: csv-cleaner\ndescription: Clean messy CSV exports.\n---\nTrim cells.\n',
        },
      });
      await buildFeed(skillsDir, dist);
      await expect.poll(() => changes, { timeout: 15_000, interval: 100 }).toBeGreaterThan(0);
      const list = await live.client.callTool({ name: 'skills_list', arguments: {} });
      expect((list.structuredContent as { total: number }).total).toBe(4);
      await live.client.callTool({ name: 'view_skill', arguments: { name: 'csv-cleaner' } }); // cache the skill JSON
    } finally {
      await live.close();
    }

    await stop(site.server);
    const offline = await connect(site.url, 'modern', ['--cache-dir', cacheDir]);
    try {
      await expect.poll(() => offline.stderr(), { timeout: 5000 }).toMatch(/offline: serving the cached feed/);
      const view = await offline.client.callTool({ name: 'view_skill', arguments: { name: 'csv-cleaner' } });
      expect(view.isError).toBeFalsy();
      const png = await offline.client.readResource({ uri: 'skill://pdf-processing/assets/logo.png' });
      expect(Buffer.from((png.contents[0] as { blob: string }).blob, 'base64').equals(PNG)).toBe(true);
      // Not cached and no network: a clear error, and the server keeps serving.
      const missing = await offline.client.callTool({
        name: 'read_skill_file',
        arguments: { name: 'expense-policy', path: 'allowance_table.json' },
      });
      expect(missing.isError).toBe(true);
      const search = await offline.client.callTool({ name: 'skills_search', arguments: { query: 'csv' } });
      expect((search.structuredContent as { results: Array<{ name: string }> }).results[0]!.name).toBe('csv-cleaner');
    } finally {
      await offline.close();
    }
  });
});
