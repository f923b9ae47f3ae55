/**
 * The guarded HTTP client against real servers on 127.0.0.1: byte caps counted on the decoded
 * body (a gzip bomb stops at the cap), deadlines for the whole exchange and across requests,
 * same-host redirects, conditional requests, and byte budgets shared by concurrent downloads.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkError } from '../../src/lib/errors.ts';
import { ByteBudget, Deadline, httpGet } from '../../src/lib/http.ts';
import { endless, gzipBomb as makeBomb, serveBomb } from '../helpers/hostile-http.ts';
import { BAD_PORTS, serveDir } from '../federate/helpers/server.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
const routes = new Map<string, Handler>();
const sockets = new Set<Socket>();
let server: Server;
let base: string;
let gzipBomb: Buffer;

beforeAll(async () => {
  gzipBomb = await makeBomb(256);
  server = createServer((req, res) => {
    const handler = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (handler) return void handler(req, res);
    res.writeHead(404).end();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const limits = { timeoutMs: 5_000, maxBytes: 1024 * 1024 };

async function failure(promise: Promise<unknown>): Promise<NetworkError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(NetworkError);
  return err as NetworkError;
}

describe('httpGet', () => {
  it('stops a gzip bomb at the cap, counting decoded bytes', async () => {
    expect(gzipBomb.byteLength).toBeLessThan(1024 * 1024); // the wire carries less than the cap
    routes.set('/bomb', serveBomb(gzipBomb));
    const err = await failure(httpGet(`${base}/bomb`, { ...limits, limitName: 'test.max' }));
    expect(err.rule).toBe('too-large');
    expect(err.message).toBe(`${base}/bomb: body passed the 1 MiB limit (test.max); download stopped`);
  });

  it('stops a body that streams forever at the cap, and one that trickles at the deadline', async () => {
    const forever = endless();
    routes.set('/forever', forever.handler);
    expect((await failure(httpGet(`${base}/forever`, limits))).rule).toBe('too-large');
    await expect.poll(() => forever.closed()).toBe(true); // the connection was closed, not drained

    routes.set('/trickle', (req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write('x'), 20);
      req.socket.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    const err = await failure(httpGet(`${base}/trickle`, { ...limits, timeoutMs: 300 }));
    expect(err.rule).toBe('timeout');
    expect(err.message).toContain('no complete answer within 300 ms');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses a body announced bigger than the cap without reading it', async () => {
    routes.set('/big', (_req, res) => void res.writeHead(200, { 'content-length': 10_000_000 }).end());
    const err = await failure(httpGet(`${base}/big`, limits));
    expect(err.message).toContain('body is 9.5 MiB (10000000 bytes), over the 1 MiB limit');
  });

  it('follows redirects on the same host only, a bounded number of times', async () => {
    routes.set('/hop', (_req, res) => void res.writeHead(302, { location: '/target' }).end());
    routes.set('/target', (_req, res) => void res.end('here'));
    const ok = await httpGet(`${base}/hop`, limits);
    expect([ok.status, ok.url, ok.body.toString()]).toEqual([200, `${base}/target`, 'here']);

    const other = base.replace('127.0.0.1', 'localhost');
    routes.set('/away', (_req, res) => void res.writeHead(301, { location: `${other}/target` }).end());
    const away = await failure(httpGet(`${base}/away`, limits));
    expect([away.rule, away.status]).toEqual(['redirect', 301]);
    expect(away.message).toContain(`redirect to ${other}/target refused`);

    routes.set('/loop', (_req, res) => void res.writeHead(302, { location: '/loop' }).end());
    expect((await failure(httpGet(`${base}/loop`, { ...limits, maxRedirects: 3 }))).message).toContain(
      'more than 3 redirects',
    );
  });

  it('sends validators and hands back 304 with an empty body; an error status names the URL', async () => {
    routes.set('/etag', (req, res) => {
      if (req.headers['if-none-match'] === '"v1"') return void res.writeHead(304, { etag: '"v1"' }).end();
      res.writeHead(200, { etag: '"v1"', 'last-modified': 'Thu, 01 Jan 2026 00:00:00 GMT' }).end('body');
    });
    const first = await httpGet(`${base}/etag`, limits);
    expect(first.validators).toEqual({ etag: '"v1"', lastModified: 'Thu, 01 Jan 2026 00:00:00 GMT' });
    const second = await httpGet(`${base}/etag`, { ...limits, validators: first.validators });
    expect([second.status, second.body.length]).toEqual([304, 0]);

    const missing = await failure(httpGet(`${base}/nothing`, limits));
    expect([missing.status, missing.rule, missing.message]).toEqual([
      404,
      'http-status',
      `${base}/nothing: not found (HTTP 404)`,
    ]);
    expect((await failure(httpGet('file:///etc/passwd', limits))).rule).toBe('bad-url');
  });

  it("a port Node's fetch refuses (the Fetch standard's bad ports): rule bad-port, said with the fix", async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'sp-bad-port-'));
    const blocked = await serveDir(root, BAD_PORTS); // listening, never reached
    try {
      const port = new URL(blocked.url).port;
      const err = await failure(httpGet(`${blocked.url}/feed/v1/index.json`, limits));
      expect([err.rule, err.message]).toEqual([
        'bad-port',
        `${blocked.url}/feed/v1/index.json: Node's fetch refuses port ${port} (a port browsers and Node block); serve it on another port`,
      ]);
      expect(blocked.requests).toEqual([]);
    } finally {
      await blocked.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('a shared deadline cuts off every request that shares it', async () => {
    routes.set('/slow', (req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write('x'), 50);
      req.socket.on('close', () => clearInterval(timer));
    });
    const deadline = new Deadline(400, 'the whole test');
    const started = Date.now();
    const errors = await Promise.all(
      [1, 2, 3].map(() => failure(httpGet(`${base}/slow`, { ...limits, timeoutMs: 10_000, deadline }))),
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    for (const err of errors) expect(err.message).toContain('the 400 ms deadline for the whole test passed');
  });

  it('concurrent downloads never pass a shared byte budget: sizes known up front are reserved, others chunk by chunk', async () => {
    routes.set('/30k', (_req, res) => void res.end(Buffer.alloc(30_000, 1)));
    const budget = new ByteBudget(100_000, 'test.total');
    const known = await Promise.allSettled(
      [1, 2, 3, 4, 5].map(() => httpGet(`${base}/30k`, { ...limits, budget, expectedBytes: 30_000 })),
    );
    expect(known.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refused = known.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason.message).toContain(
      'not fetched: its 29.3 KiB (30000 bytes) would pass the 97.7 KiB (100000 bytes) total (test.total)',
    );
    expect(budget.used).toBe(90_000);

    const unknown = new ByteBudget(100_000, 'test.total');
    const results = await Promise.allSettled(
      [1, 2, 3, 4, 5].map(() => httpGet(`${base}/30k`, { ...limits, budget: unknown })),
    );
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeLessThanOrEqual(3);
    expect(unknown.used).toBeLessThanOrEqual(100_000);
  });
});
