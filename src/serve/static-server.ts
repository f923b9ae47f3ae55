/**
 * A built site served as a static host serves it: under its base path, `index.html` for
 * folders (with a redirect to the trailing slash), the site's `404.html` for anything missing,
 * MIME types by extension (JSON feeds as `application/json`, SKILL.md as `text/markdown`,
 * archives as `application/gzip` and `application/zip`), and the header rules that keep skill
 * files inert (./headers.ts). `skillpress preview`, `skillpress dev` and the tests use it.
 * Listens on 127.0.0.1 only.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import mime from 'mime';
import { isInsideDir } from '../lib/fs.ts';
import { normalizeBase } from '../site/urls.ts';
import { skillFileHeaders } from '../site/headers.ts';

export interface StaticServerOptions {
  /** The built site; a function when the folder changes while serving (`skillpress dev`). */
  root: string | (() => string);
  /** Base path the site is served under (default `/`). */
  base?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Rewrites each HTML page before it is sent (`skillpress dev` adds its reload script). */
  transformHtml?: (html: string) => string;
  /** Answers a request before the files do; returns whether it did (`skillpress dev`'s own routes). */
  intercept?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

export interface StaticServer {
  /** `http://127.0.0.1:<port><base>` */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The Content-Type a static host sends for a file (text types with their charset). */
export function contentType(file: string): string {
  const type = mime.getType(file) ?? 'application/octet-stream';
  return /^(text\/|application\/(json|javascript|xml|manifest\+json))/.test(type) ? `${type}; charset=utf-8` : type;
}

/** The file a request path names below `root`, or undefined when it leaves it or cannot be decoded. */
function fileFor(root: string, rel: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rel);
  } catch {
    return undefined;
  }
  const file = path.resolve(root, `.${path.sep}${decoded}`);
  return isInsideDir(file, root) && !decoded.includes('\0') ? file : undefined;
}

async function serveFile(
  req: IncomingMessage,
  res: ServerResponse,
  file: string,
  sitePath: string,
  options: StaticServerOptions,
  status = 200,
): Promise<void> {
  const headers: Record<string, string | number> = {
    'content-type': contentType(file),
    'cache-control': 'no-cache',
    ...skillFileHeaders(sitePath),
  };
  if (options.transformHtml && file.endsWith('.html')) {
    const body = Buffer.from(options.transformHtml(await readFile(file, 'utf8')));
    res.writeHead(status, { ...headers, 'content-length': body.length });
    return void res.end(req.method === 'HEAD' ? undefined : body);
  }
  const st = await stat(file);
  res.writeHead(status, { ...headers, 'content-length': st.size });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  options: StaticServerOptions,
  base: string,
): Promise<void> {
  if (options.intercept?.(req, res)) return;
  const root = path.resolve(typeof options.root === 'function' ? options.root() : options.root);
  const notFound = async (): Promise<void> => {
    const page = path.join(root, '404.html');
    if (
      await stat(page).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      return serveFile(req, res, page, '404.html', options, 404);
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
  };
  if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD' }).end();
  const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (`${pathname}/` === base) return void res.writeHead(301, { location: base }).end();
  if (!pathname.startsWith(base)) return notFound();
  const rel = pathname.slice(base.length);
  const file = fileFor(root, rel);
  const st = file ? await stat(file).catch(() => undefined) : undefined;
  if (!file || !st) return notFound();
  if (st.isDirectory()) {
    if (!pathname.endsWith('/')) return void res.writeHead(301, { location: `${pathname}/` }).end();
    const index = path.join(file, 'index.html');
    return (await stat(index).then(
      (s) => s.isFile(),
      () => false,
    ))
      ? serveFile(req, res, index, `${decodeURIComponent(rel)}index.html`, options)
      : notFound();
  }
  if (!st.isFile()) return notFound();
  return serveFile(req, res, file, decodeURIComponent(rel), options);
}

export async function serveStatic(options: StaticServerOptions): Promise<StaticServer> {
  const base = normalizeBase(options.base);
  const server: Server = createServer((req, res) => {
    handle(req, res, options, base).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('internal error\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}${base}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
