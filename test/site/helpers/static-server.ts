/**
 * A minimal static file server for a built site, as a static host would serve it: correct
 * MIME types, percent-decoded paths, `index.html` for folders, the site's `404.html` for
 * anything missing, optionally under a sub-path. Listens on 127.0.0.1, port 0.
 */
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import mime from 'mime';

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

export async function serveStatic(root: string, prefix = '/'): Promise<StaticServer> {
  const absRoot = path.resolve(root);
  const server: Server = createServer(async (req, res) => {
    try {
      const pathname = new URL(req.url ?? '/', 'http://x').pathname;
      if (!pathname.startsWith(prefix)) return notFound();
      const rel = decodeURIComponent(pathname.slice(prefix.length));
      let file = path.resolve(absRoot, rel);
      if (file !== absRoot && !file.startsWith(absRoot + path.sep)) return notFound();
      let st = await stat(file).catch(() => undefined);
      if (st?.isDirectory()) {
        if (!pathname.endsWith('/')) {
          res.writeHead(301, { location: `${pathname}/` });
          return res.end();
        }
        file = path.join(file, 'index.html');
        st = await stat(file).catch(() => undefined);
      }
      if (!st?.isFile()) return notFound();
      res.writeHead(200, { 'content-type': contentType(file), 'content-length': st.size });
      res.end(await readFile(file));
    } catch {
      notFound();
    }

    async function notFound(): Promise<void> {
      const page = await readFile(path.join(absRoot, '404.html')).catch(() => Buffer.from('not found'));
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function contentType(file: string): string {
  const type = mime.getType(file) ?? 'application/octet-stream';
  return /^(text\/|application\/(json|javascript|xml))/.test(type) ? `${type}; charset=utf-8` : type;
}
