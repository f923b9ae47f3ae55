/** Hostile HTTP answers for tests: a gzip bomb, and bodies that never end. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGzip } from 'node:zlib';

/**
 * Gzip of `mib` MiB of zeros: one 64 MiB gzip member, repeated (a gzip stream may hold several
 * members, unpacked one after the other), so it is made in a moment and never held unpacked.
 */
export async function gzipBomb(mib: number): Promise<Buffer> {
  const member = await gzipZeros(Math.min(mib, 64));
  return Buffer.concat(Array.from({ length: Math.ceil(mib / 64) }, () => member));
}

async function gzipZeros(mib: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < mib; i++) if (!gzip.write(zeros)) await new Promise((r) => gzip.once('drain', r));
  gzip.end();
  await done;
  return Buffer.concat(out);
}

/** Answer with `bomb` as a gzip-encoded body (what a 200 of a small file looks like on the wire). */
export const serveBomb =
  (bomb: Buffer) =>
  (_req: IncomingMessage, res: ServerResponse): void =>
    void res
      .writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': bomb.byteLength,
      })
      .end(bomb);

/** A body that never ends: as fast as the client reads. `closed()` tells whether the client hung up. */
export function endless(): { handler: (req: IncomingMessage, res: ServerResponse) => void; closed: () => boolean } {
  let closed = false;
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 32);
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk));
    };
    res.on('drain', pump);
    req.socket.on('close', () => (closed = true));
    res.write('{"feed_version":"1","pad":"');
    pump();
  };
  return { handler, closed: () => closed };
}
