/**
 * The static server behind `skillpress preview` and `skillpress dev`: what a static host does
 * (base path, folders, 404 page, MIME types) plus the headers that keep skill files inert.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersFile, isActiveFile, skillFileHeaders } from '../../src/site/headers.ts';
import { serveStatic, type StaticServer } from '../../src/serve/static-server.ts';

let root: string;
let server: StaticServer;

const FILES: Record<string, string> = {
  'index.html': '<h1>home</h1>',
  '404.html': '<h1>not in the catalog</h1>',
  'skills/pdf/index.html': '<h1>pdf</h1>',
  'feed/v1/index.json': '{"feed_version":"1"}',
  'feed/v1/files/pdf/SKILL.md': '# pdf',
  'feed/v1/files/pdf/page.html': '<script>alert(1)</script>',
  'feed/v1/files/pdf/#hash ?q%20.txt': 'odd',
  '.well-known/agent-skills/pdf.tar.gz': 'gz',
  '.well-known/agent-skills/pdf.zip': 'zip',
  '../outside.txt': 'secret',
};

beforeAll(async () => {
  const tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-serve-'));
  root = path.join(tmp, 'site');
  for (const [rel, body] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), body);
  }
  server = await serveStatic({ root, base: '/cat/' });
});

afterAll(async () => {
  await server?.close();
  await rm(path.dirname(root), { recursive: true, force: true });
});

const origin = (): string => new URL(server.url).origin;
const get = (p: string, init?: RequestInit) => fetch(`${origin()}${p}`, { redirect: 'manual', ...init });

describe('serveStatic', () => {
  it('serves the site under its base path, folders through index.html', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cat\/$/);
    expect(await (await get('/cat/')).text()).toBe('<h1>home</h1>');
    expect(await (await get('/cat/skills/pdf/')).text()).toBe('<h1>pdf</h1>');
    const redirect = await get('/cat/skills/pdf');
    expect([redirect.status, redirect.headers.get('location')]).toEqual([301, '/cat/skills/pdf/']);
    expect((await get('/cat')).headers.get('location')).toBe('/cat/');
  });

  it('answers anything missing, outside the base or outside the folder with the 404 page', async () => {
    for (const p of [
      '/cat/nope/',
      '/index.html',
      '/cat/..%2foutside.txt',
      '/cat/%2e%2e/outside.txt',
      '/cat/feed/%00',
      '/cat/%E0%A4%A',
    ]) {
      const res = await get(p);
      expect([p, res.status, await res.text()]).toEqual([p, 404, '<h1>not in the catalog</h1>']);
    }
    expect((await get('/cat/', { method: 'POST' })).status).toBe(405);
  });

  it('sends the MIME types a static host sends, and names with any character', async () => {
    const type = async (p: string) => (await get(p)).headers.get('content-type');
    expect(await type('/cat/feed/v1/index.json')).toBe('application/json; charset=utf-8');
    expect(await type('/cat/feed/v1/files/pdf/SKILL.md')).toBe('text/markdown; charset=utf-8');
    expect(await type('/cat/.well-known/agent-skills/pdf.tar.gz')).toBe('application/gzip');
    expect(await type('/cat/.well-known/agent-skills/pdf.zip')).toBe('application/zip');
    expect(await type('/cat/')).toBe('text/html; charset=utf-8');
    expect(await (await get('/cat/feed/v1/files/pdf/%23hash%20%3Fq%2520.txt')).text()).toBe('odd');
    const head = await get('/cat/feed/v1/index.json', { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, '20', '']);
  });

  it('sandboxes skill files and sends active types as attachments; the site itself is untouched', async () => {
    const headers = async (p: string) => {
      const h = (await get(p)).headers;
      return [h.get('content-security-policy'), h.get('x-content-type-options'), h.get('content-disposition')];
    };
    expect(await headers('/cat/feed/v1/files/pdf/page.html')).toEqual(['sandbox', 'nosniff', 'attachment']);
    expect(await headers('/cat/feed/v1/files/pdf/SKILL.md')).toEqual(['sandbox', 'nosniff', null]);
    expect(await headers('/cat/.well-known/agent-skills/pdf.zip')).toEqual(['sandbox', 'nosniff', null]);
    expect(await headers('/cat/skills/pdf/')).toEqual([null, null, null]);
  });
});

describe('header rules', () => {
  it('tells active types by extension, whatever the case', () => {
    for (const f of ['a.html', 'dir/B.SVG', 'x.xhtml', 'x.xml', 'x.js', 'x.mjs']) expect(isActiveFile(f), f).toBe(true);
    for (const f of ['a.md', 'html', '.svg', 'x.py', 'x.png', 'x.json']) expect(isActiveFile(f), f).toBe(false);
    expect(skillFileHeaders('catalog/v1/files/x/a.svg')).toEqual({
      'Content-Security-Policy': 'sandbox',
      'X-Content-Type-Options': 'nosniff',
      'Content-Disposition': 'attachment',
    });
    expect(skillFileHeaders('feedback/v1/files/a.svg')).toEqual({});
  });

  it("writes them as a _headers file under the base path, within the hosts' 100-rule limit", () => {
    const text = headersFile('/skills/');
    expect(text).toContain(
      '/skills/feed/v1/files/*\n  Content-Security-Policy: sandbox\n  X-Content-Type-Options: nosniff\n',
    );
    expect(text).toContain('/skills/catalog/v1/files/*.html\n  Content-Disposition: attachment\n');
    expect(text).toContain('/skills/.well-known/agent-skills/*\n  Content-Security-Policy: sandbox\n');
    expect(text).not.toContain('/skills/.well-known/agent-skills/*.html');
    // Scripts as plain text: a page of the site cannot run one with <script src>.
    expect(text).toContain(
      '/skills/feed/v1/files/*.mjs\n  Content-Disposition: attachment\n  Content-Type: text/plain; charset=utf-8\n',
    );
    expect(text.split('\n').filter((l) => l.startsWith('/')).length).toBeLessThanOrEqual(100);
  });
});

/** A GET with the raw path and Host header given (fetch normalizes neither the way an attacker's client need not). */
function rawGet(
  port: number,
  rawPath: string,
  host = `127.0.0.1:${port}`,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: rawPath, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('serveStatic against hostile requests', () => {
  let hostile: StaticServer;
  let dir: string;
  let events = 0;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'skillpress-serve-hostile-'));
    await mkdir(path.join(dir, 'feed/v1/files/web/scripts'), { recursive: true });
    await writeFile(path.join(dir, 'index.html'), '<h1>home</h1>');
    await writeFile(path.join(dir, 'feed/v1/files/web/page.html'), '<script>alert(1)</script>');
    await writeFile(path.join(dir, 'feed/v1/files/web/scripts/x.js'), 'alert(1)');
    await writeFile(path.join(dir, 'secret.txt'), 'outside the output');
    await symlink('/etc/passwd', path.join(dir, 'feed/v1/files/web/passwd'));
    await symlink(path.join(dir, 'feed/v1/files/web'), path.join(dir, 'linked-folder'));
    hostile = await serveStatic({
      root: dir,
      // As `skillpress dev`'s reload stream: answered before the files, after the Host check.
      intercept: (req, res) => {
        if (!req.url?.startsWith('/__skillpress/')) return false;
        events++;
        res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: {}\n\n');
        return true;
      },
    });
  });
  afterAll(async () => {
    await hostile?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a doubled slash gets the skill-file headers too, or a redirect to the canonical path', async () => {
    const res = await rawGet(hostile.port, '/feed/v1//files/web/page.html');
    expect([res.status, res.headers.location]).toEqual([301, '/feed/v1/files/web/page.html']);
    const encoded = await rawGet(hostile.port, '/feed/v1/files%2Fweb/page.html');
    expect([encoded.headers['content-security-policy'], encoded.headers['content-disposition']]).toEqual([
      'sandbox',
      'attachment',
    ]);
    // Never a redirect to another host.
    const other = await rawGet(hostile.port, '/x//evil.example/');
    expect(other.headers.location).toBe('/x/evil.example/');
  });

  it('sends a skill’s script as plain text, which a browser will not run from a page', async () => {
    const res = await rawGet(hostile.port, '/feed/v1/files/web/scripts/x.js');
    expect([res.headers['content-type'], res.headers['x-content-type-options']]).toEqual([
      'text/plain; charset=utf-8',
      'nosniff',
    ]);
  });

  it('serves nothing through a symbolic link inside the output', async () => {
    for (const p of ['/feed/v1/files/web/passwd', '/linked-folder/page.html']) {
      const res = await rawGet(hostile.port, p);
      expect([p, res.status]).toEqual([p, 404]);
      expect(res.body).not.toContain('root:');
    }
  });

  it('answers only requests addressed to itself (DNS rebinding), the reload stream included', async () => {
    const port = hostile.port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`])
      expect([host, (await rawGet(port, '/', host)).status]).toEqual([host, 200]);
    for (const host of [
      `evil.example:${port}`,
      'evil.example',
      `127.0.0.1:${port + 1}`,
      `localhost.evil.example:${port}`,
    ]) {
      expect([host, (await rawGet(port, '/', host)).status]).toEqual([host, 421]);
      expect([host, (await rawGet(port, '/__skillpress/events', host)).status]).toEqual([host, 421]);
    }
    const before = events;
    await rawGet(port, '/__skillpress/events', `evil.example:${port}`);
    expect(events).toBe(before);
  });

  it('closes every file it opens, for HEAD requests and rewritten pages too', async () => {
    const dev = await serveStatic({ root, base: '/cat/', transformHtml: (html) => `${html}<!-- dev -->` });
    // A handle left open is closed by the garbage collector, which says so in a warning.
    const leaks: string[] = [];
    const onWarning = (w: Error): void => void (/file descriptor/i.test(w.message) && leaks.push(w.message));
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 60; i++) {
        await (await get('/cat/feed/v1/files/pdf/SKILL.md', { method: 'HEAD' })).arrayBuffer();
        expect(await (await fetch(`${new URL(dev.url).origin}/cat/`)).text()).toBe('<h1>home</h1><!-- dev -->');
        await (await get('/cat/feed/v1/index.json')).text();
      }
      // Garbage enough for the young generation to be collected several times.
      for (let i = 0; i < 40; i++) void Array.from({ length: 100_000 }, (_, j) => ({ j }));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(leaks).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await dev.close();
    }
  });

  it('looks a file up in each folder in turn, and hands what none holds to the fallback', async () => {
    const extra = path.join(path.dirname(root), 'extra');
    await mkdir(path.join(extra, '_model'), { recursive: true });
    await writeFile(path.join(extra, '_model/vocab.json'), '{"a":1}');
    await writeFile(path.join(extra, 'index.json'), 'shadowed');
    const asked: string[] = [];
    const dev = await serveStatic({
      root: () => [root, extra],
      base: '/cat/',
      fallback: async (req, res) => {
        asked.push(req.url ?? '');
        res.writeHead(200, { 'content-type': 'text/plain' }).end('rendered');
      },
    });
    const at = (p: string) => fetch(`${new URL(dev.url).origin}${p}`, { redirect: 'manual' });
    try {
      expect(await (await at('/cat/_model/vocab.json')).text()).toBe('{"a":1}');
      // The first folder wins; a folder without a page is the fallback's, as is a missing file.
      expect(await (await at('/cat/feed/v1/index.json')).text()).toBe('{"feed_version":"1"}');
      expect(await (await at('/cat/feed/v1/')).text()).toBe('rendered');
      expect(await (await at('/cat/skills/new/')).text()).toBe('rendered');
      expect(asked).toEqual(['/cat/feed/v1/', '/cat/skills/new/']);
    } finally {
      await dev.close();
    }
  });
});
