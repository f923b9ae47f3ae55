/**
 * `serveStatic` with `tls`: HTTPS with HTTP/2 as static hosts serve a site, answering exactly as
 * over HTTP/1.1 (types, the headers that keep skill files inert, the 404 page) and refusing a
 * request addressed to another name, which HTTP/2 carries in `:authority`.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { connect, constants, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Http2SecureServer } from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic, type StaticServer } from '../../src/serve/static-server.ts';
import { selfSignedCertificate, type SelfSigned } from './helpers/self-signed.ts';

const FILES: Record<string, string> = {
  'index.html': '<h1>home</h1>',
  '404.html': '<h1>not in the catalog</h1>',
  'feed/v1/search.json': '{"index":{}}',
  'feed/v1/files/pdf/SKILL.md': '# pdf',
  'feed/v1/files/pdf/page.html': '<script>alert(1)</script>',
  'feed/v1/files/pdf/draw.svg': '<svg/>',
};

let root: string;
let cert: SelfSigned;
let h1: StaticServer;
let h2: StaticServer<Http2SecureServer>;
let session: ClientHttp2Session;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'skillpress-serve-h2-'));
  for (const [rel, body] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), body);
  }
  cert = await selfSignedCertificate();
  h1 = await serveStatic({ root, base: '/cat/' });
  h2 = await serveStatic({ root, base: '/cat/', tls: cert });
  // Trusting this certificate only: the server's name and chain are checked as a browser would.
  session = connect(new URL(h2.url).origin, { ca: cert.cert });
});

afterAll(async () => {
  session?.close();
  await h2?.close();
  await h1?.close();
  await rm(root, { recursive: true, force: true });
});

/** One request over the HTTP/2 session: status, headers, body. */
function get2(p: string, authority?: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': p, ...(authority ? { ':authority': authority } : {}) });
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    let body = '';
    stream.on('response', (h) => {
      status = Number(h[constants.HTTP2_HEADER_STATUS]);
      headers = h;
    });
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (body += chunk));
    stream.on('end', () => resolve({ status, headers, body }));
    stream.on('error', reject);
  });
}

/** The headers a file is served with, whatever the protocol (not the date, nor HTTP/2's pseudo-headers). */
const served = (headers: IncomingHttpHeaders | Headers): Record<string, string> =>
  Object.fromEntries(
    [...(headers instanceof Headers ? headers.entries() : Object.entries(headers))]
      .filter(([k]) => !k.startsWith(':') && !['date', 'connection', 'keep-alive'].includes(k))
      .map(([k, v]) => [k, String(v)]),
  );

describe('serveStatic over HTTPS with HTTP/2', () => {
  it('answers on https://127.0.0.1 with HTTP/2', async () => {
    expect(h2.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/cat\/$/);
    expect(h2.httpServer.address()).toMatchObject({ address: '127.0.0.1' });
    const home = await get2('/cat/');
    expect([home.status, home.body, session.alpnProtocol]).toEqual([200, '<h1>home</h1>', 'h2']);
  });

  it('serves each file with the same status, headers and body as over HTTP/1.1, the 404 page included', async () => {
    for (const p of [
      '/cat/feed/v1/search.json',
      '/cat/feed/v1/files/pdf/SKILL.md',
      '/cat/feed/v1/files/pdf/page.html',
      '/cat/feed/v1/files/pdf/draw.svg',
      '/cat/nope/',
    ]) {
      const one = await fetch(`${new URL(h1.url).origin}${p}`, { redirect: 'manual' });
      const two = await get2(p);
      expect([p, two.status, served(two.headers), two.body]).toEqual([
        p,
        one.status,
        served(one.headers),
        await one.text(),
      ]);
    }
    // The skill-file headers are there, not only equal: a skill's page is sandboxed, never run as the site.
    const page = await get2('/cat/feed/v1/files/pdf/page.html');
    expect(page.headers['content-security-policy']).toContain('sandbox');
    expect((await get2('/cat/nope/')).status).toBe(404);
  });

  it('refuses a request addressed to another name with 421', async () => {
    const port = h2.port;
    for (const authority of [`rebound.example:${port}`, `127.0.0.1:${port + 1}`]) {
      const res = await get2('/cat/', authority);
      expect([authority, res.status]).toEqual([authority, 421]);
    }
    expect((await get2('/cat/', `localhost:${port}`)).status).toBe(200);
  });

  it('still answers HTTP/1.1 over TLS, with the same Host check', async () => {
    const ask = (host: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const req = httpsRequest(
          // The certificate is checked against the name the connection is for, not the Host header.
          {
            host: '127.0.0.1',
            servername: 'localhost',
            port: h2.port,
            path: '/cat/',
            ca: cert.cert,
            headers: { host },
            agent: false,
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end();
      });
    expect(await ask(`127.0.0.1:${h2.port}`)).toBe(200);
    expect(await ask(`rebound.example:${h2.port}`)).toBe(421);
  });
});
