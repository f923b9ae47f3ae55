/**
 * A built site served as a static host serves it: under its base path, `index.html` for
 * folders (with a redirect to the trailing slash), the site's `404.html` for anything missing,
 * MIME types by extension (JSON feeds as `application/json`, SKILL.md as `text/markdown`,
 * archives as `application/gzip` and `application/zip`), and the header rules that keep skill
 * files inert (./headers.ts). `skillpress preview`, `skillpress dev` and the tests use it.
 *
 * Listens on 127.0.0.1 only, and answers only requests addressed to it (Host `127.0.0.1:<port>`,
 * `localhost:<port>` or `[::1]:<port>`): a page on another site that rebinds its own name to
 * 127.0.0.1 gets 421, not the catalog nor `dev`'s reload stream. The skill-file headers are
 * chosen by the file actually served (its path below the root), so `/feed/v1//files/x.html`
 * gets them too; a path that is not canonical (a doubled slash) is redirected to the canonical
 * one. Nothing is served through a symbolic link: a link inside the output is not found.
 *
 * With `tls` it serves HTTPS with HTTP/2 (HTTP/1.1 for clients without it), as static hosts do:
 * a browser then asks for every file at once instead of six at a time. The same handler answers
 * both; under HTTP/2 the Host check reads `:authority`.
 */
import { constants } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { open, realpath, stat } from 'node:fs/promises';
import { createServer, IncomingMessage, type OutgoingHttpHeaders, type Server, ServerResponse } from 'node:http';
import { createSecureServer, type Http2SecureServer, type Http2ServerRequest } from 'node:http2';
import type { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import path from 'node:path';
import mime from 'mime';
import { isInsideDir } from '../lib/fs.ts';
import { normalizeBase } from '../site/urls.ts';
import { skillFileHeaders } from '../site/headers.ts';

export interface StaticServerOptions {
  /**
   * The built site; a function when the folder changes while serving (`skillpress dev`). Several
   * folders: a file is looked up in each in turn (the 404 page in the first).
   */
  root: string | (() => string | readonly string[]);
  /** Base path the site is served under (default `/`). */
  base?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Rewrites each HTML page before it is sent (`skillpress dev` adds its reload script). */
  transformHtml?: (html: string) => string;
  /** Answers an HTTP/1.1 request before the files do; returns whether it did (`skillpress dev`'s own routes). */
  intercept?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Answers an HTTP/1.1 request no file answers, instead of the 404 page (`skillpress dev`'s pages rendered on request). */
  fallback?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** PEM key and certificate: serve HTTPS with HTTP/2 (and HTTP/1.1 for clients without it), as static hosts do. */
  tls?: { key: string; cert: string };
}

export interface StaticServer<S = Server> {
  /** `http://127.0.0.1:<port><base>`, or `https://…` with `tls` */
  url: string;
  port: number;
  /** Node's server, for a WebSocket upgrade handler (`skillpress dev`'s live site). */
  httpServer: S;
  close(): Promise<void>;
}

/** A request and its response over HTTP/1.1 or HTTP/2 (node:http2's compatibility API). */
type Request = IncomingMessage | Http2ServerRequest;
/** What the handler uses of a response: the same under both (a union of the two classes is not callable). */
interface Response extends Writable {
  readonly headersSent: boolean;
  writeHead(status: number, headers?: OutgoingHttpHeaders): this;
}

/** The request as HTTP/1.1's, for the hooks that take only that (`skillpress dev`'s); undefined under HTTP/2. */
const http1 = (req: Request, res: Response): { req: IncomingMessage; res: ServerResponse } | undefined =>
  req instanceof IncomingMessage && res instanceof ServerResponse ? { req, res } : undefined;

/** The name and port a request is addressed to: HTTP/2's `:authority`, else HTTP/1.1's Host. */
const authorityOf = (req: Request): string | undefined => {
  const authority = req.headers[':authority'];
  return typeof authority === 'string' ? authority : req.headers.host;
};

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

/** The path of `file` below `root` as a site path (`feed/v1/files/x/page.html`): what the header rules match. */
const sitePathOf = (root: string, file: string): string => path.relative(root, file).split(path.sep).join('/');

/**
 * `file` when neither it nor any folder between `root` and it is a symbolic link (its real path
 * is where it is); undefined otherwise.
 */
async function unlinked(root: string, file: string): Promise<string | undefined> {
  const [realRoot, real] = await Promise.all([realpath(root), realpath(file)]).catch(() => [undefined, undefined]);
  return realRoot !== undefined && real === path.join(realRoot, path.relative(root, file)) ? file : undefined;
}

/** Hosts this server answers to: itself by address or by name, nothing a rebound name could be. */
export function isLocalHost(host: string | undefined, port: number): boolean {
  return host !== undefined && [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(host.toLowerCase());
}

async function serveFile(
  req: Request,
  res: Response,
  file: string,
  sitePath: string,
  options: StaticServerOptions,
  status = 200,
): Promise<void> {
  // Lower-cased, so a skill-file rule replaces the type by extension rather than doubling it.
  const headers: Record<string, string | number> = lowerKeys({
    'content-type': contentType(file),
    'cache-control': 'no-cache',
    ...skillFileHeaders(sitePath),
  });
  // Never through a link put in its place meanwhile.
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  // Closed here unless a stream took it over (it closes the handle when it ends or is destroyed).
  let streaming = false;
  try {
    const st = await handle.stat();
    if (options.transformHtml && file.endsWith('.html') && !('content-disposition' in headers)) {
      const body = Buffer.from(options.transformHtml(await handle.readFile('utf8')));
      res.writeHead(status, { ...headers, 'content-length': body.length });
      return void res.end(req.method === 'HEAD' ? undefined : body);
    }
    res.writeHead(status, { ...headers, 'content-length': st.size });
    if (req.method === 'HEAD') return void res.end();
    streaming = true;
    // A client that goes away mid-file destroys both ends.
    pipeline(handle.createReadStream(), res).catch(() => res.destroy());
  } finally {
    if (!streaming) await handle.close();
  }
}

/** The file or folder `rel` names in the first of `roots` that has it (never through a link). */
async function findBelow(roots: readonly string[], rel: string) {
  for (const root of roots) {
    const named = fileFor(root, rel);
    const file = named && (await unlinked(root, named));
    const st = file ? await stat(file).catch(() => undefined) : undefined;
    if (file && st) return { root, file, st };
  }
  return undefined;
}

async function handle(
  req: Request,
  res: Response,
  options: StaticServerOptions,
  base: string,
  port: number,
): Promise<void> {
  if (!isLocalHost(authorityOf(req), port)) {
    return void res
      .writeHead(421, { 'content-type': 'text/plain; charset=utf-8' })
      .end('misdirected request: this server answers to 127.0.0.1, localhost and [::1] only\n');
  }
  const h1 = http1(req, res);
  if (h1 && options.intercept?.(h1.req, h1.res)) return;
  const given = typeof options.root === 'function' ? options.root() : options.root;
  const roots = (typeof given === 'string' ? [given] : given).map((r) => path.resolve(r));
  const notFound = async (): Promise<void> => {
    if (options.fallback && h1) return options.fallback(h1.req, h1.res);
    const page = path.join(roots[0]!, '404.html');
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
  const url = new URL(req.url ?? '/', 'http://localhost');
  const pathname = url.pathname;
  if (/\/{2,}/.test(pathname))
    return void res.writeHead(301, { location: `${pathname.replace(/\/{2,}/g, '/')}${url.search}` }).end();
  if (`${pathname}/` === base) return void res.writeHead(301, { location: base }).end();
  if (!pathname.startsWith(base)) return notFound();
  const found = await findBelow(roots, pathname.slice(base.length));
  if (!found) return notFound();
  const { root, file, st } = found;
  if (st.isDirectory()) {
    const index = path.join(file, 'index.html');
    const hasIndex = await stat(index).then(
      (s) => s.isFile(),
      () => false,
    );
    // A folder without a page (the site's, when its pages are rendered on request) is the fallback's.
    if (!hasIndex) return notFound();
    if (!pathname.endsWith('/')) return void res.writeHead(301, { location: `${pathname}/` }).end();
    return serveFile(req, res, index, sitePathOf(root, index), options);
  }
  if (!st.isFile()) return notFound();
  return serveFile(req, res, file, sitePathOf(root, file), options);
}

const lowerKeys = <T>(headers: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

/** The request handler both servers share: errors answered with a 500. */
function handler(options: StaticServerOptions, base: string, port: () => number) {
  return (req: Request, res: Response): void => {
    handle(req, res, options, base, port()).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('internal error\n');
    });
  };
}

/** Listening on 127.0.0.1 only; resolves with the port. */
async function listen(server: Server | Http2SecureServer, port: number | undefined): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port ?? 0, '127.0.0.1', () => resolve());
  });
  return (server.address() as { port: number }).port;
}

/**
 * Serves a built site on 127.0.0.1; over HTTPS with HTTP/2 when `tls` is given.
 *
 * @example
 * const server = await serveStatic({ root: 'dist' });
 * console.log(server.url); // http://127.0.0.1:<port>/
 * await server.close();
 */
export async function serveStatic(
  options: StaticServerOptions & { tls: { key: string; cert: string } },
): Promise<StaticServer<Http2SecureServer>>;
export async function serveStatic(options: StaticServerOptions): Promise<StaticServer>;
export async function serveStatic(options: StaticServerOptions): Promise<StaticServer<Server | Http2SecureServer>> {
  const base = normalizeBase(options.base);
  let port = 0;
  const answer = handler(options, base, () => port);
  const { server, scheme, dropConnections } = options.tls ? http2Server(options.tls, answer) : http1Server(answer);
  port = await listen(server, options.port);
  return {
    url: `${scheme}://127.0.0.1:${port}${base}`,
    port,
    httpServer: server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        dropConnections();
      }),
  };
}

interface Listening<S> {
  server: S;
  scheme: 'http' | 'https';
  /** Closes the open connections, so `close()` need not wait for idle keep-alive ones. */
  dropConnections: () => void;
}

function http1Server(answer: ReturnType<typeof handler>): Listening<Server> {
  const server = createServer(answer);
  return { server, scheme: 'http', dropConnections: () => server.closeAllConnections() };
}

/** HTTPS with HTTP/2, and HTTP/1.1 for a client that does not offer `h2`. */
function http2Server(
  tls: { key: string; cert: string },
  answer: ReturnType<typeof handler>,
): Listening<Http2SecureServer> {
  const server = createSecureServer({ allowHTTP1: true, key: tls.key, cert: tls.cert }, answer);
  // An HTTP/2 server has no closeAllConnections(): its connections are closed one by one.
  const sockets = new Set<Socket>();
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return { server, scheme: 'https', dropConnections: () => sockets.forEach((socket) => socket.destroy()) };
}
