/**
 * A static file server on 127.0.0.1 (port 0) for federation and install tests: ETag and
 * Last-Modified validators with 304 answers, a log of every request, and per-path overrides
 * so a test can make one URL hostile (bad bytes, redirects, hanging, trickling).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { createHash } from 'node:crypto';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface TestServer {
  url: string;
  /** Every request's path and whether it was conditional. */
  requests: Array<{ path: string; conditional: boolean; status?: number }>;
  /** Body bytes served from files so far (not counting overrides). */
  bytesSent(): number;
  /** Serve `urlPath` (decoded, starting with /) with a custom handler instead of the file. */
  override(urlPath: string, handler: Handler): void;
  close(): Promise<void>;
}

const LAST_MODIFIED = 'Thu, 01 Jan 2026 00:00:00 GMT';

/**
 * Ports of the Fetch standard's "bad ports" list, which Node's fetch (undici) refuses to connect
 * to, as browsers do: a server listening there is never reached.
 */
export const BAD_PORTS = [6666, 6665, 6667, 6668, 6669, 6000, 10080, 6697];

/** Listen on 127.0.0.1: port 0 (any free one), or the first of `ports` that is free. */
async function listen(server: Server, ports: readonly number[]): Promise<void> {
  for (const [i, port] of ports.entries()) {
    try {
      return await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || i === ports.length - 1) throw err;
    }
  }
}

/** Serve `root`; `ports`: listen on the first of them that is free (default: any free port). */
export async function serveDir(root: string, ports: readonly number[] = [0]): Promise<TestServer> {
  const overrides = new Map<string, Handler>();
  const requests: TestServer['requests'] = [];
  const sockets = new Set<Socket>();
  let bytesSent = 0;
  const server: Server = createServer(async (req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const record = {
      path: urlPath,
      conditional: Boolean(req.headers['if-none-match'] || req.headers['if-modified-since']),
      status: undefined as number | undefined,
    };
    requests.push(record);
    res.on('finish', () => (record.status = res.statusCode));
    const override = overrides.get(urlPath);
    if (override) return override(req, res);
    const file = path.resolve(root, '.' + urlPath);
    if (!file.startsWith(path.resolve(root) + path.sep)) return void res.writeHead(403).end();
    const body = await readFile(file).catch(() => undefined);
    if (!body) return void res.writeHead(404).end('not found');
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
    bytesSent += body.byteLength;
    res.writeHead(200, { etag, 'last-modified': LAST_MODIFIED, 'content-length': body.byteLength }).end(body);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await listen(server, ports);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    bytesSent: () => bytesSent,
    override: (p, h) => void overrides.set(p, h),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
