/** Read back .tar.gz and .zip archives in tests: every entry with its bytes, mode and type. */
import { gunzipSync } from 'node:zlib';
import { extract } from 'tar-stream';
import { unzipSync } from 'fflate';

export interface Entry {
  path: string;
  bytes: Buffer;
  mode?: number;
  type: string;
}

export async function readTarGz(buf: Buffer): Promise<Entry[]> {
  const ex = extract();
  const entries: Entry[] = [];
  const done = (async () => {
    for await (const entry of ex) {
      const chunks: Buffer[] = [];
      for await (const c of entry) chunks.push(c as Buffer);
      entries.push({ path: entry.header.name, bytes: Buffer.concat(chunks), mode: entry.header.mode, type: entry.header.type });
    }
  })();
  ex.end(gunzipSync(buf));
  await done;
  return entries;
}

export function readZip(buf: Buffer): Entry[] {
  return Object.entries(unzipSync(new Uint8Array(buf))).map(([p, bytes]) => ({ path: p, bytes: Buffer.from(bytes), type: 'file' }));
}
