/** Read back build output in tests: .tar.gz and .zip entries with their bytes, mode and type; every file of a folder. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
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
      entries.push({
        path: entry.header.name,
        bytes: Buffer.concat(chunks),
        mode: entry.header.mode,
        type: entry.header.type,
      });
    }
  })();
  ex.end(gunzipSync(buf));
  await done;
  return entries;
}

export function readZip(buf: Buffer): Entry[] {
  return Object.entries(unzipSync(new Uint8Array(buf))).map(([p, bytes]) => ({
    path: p,
    bytes: Buffer.from(bytes),
    type: 'file',
  }));
}

/** Every file below `dir`, as `/`-separated paths relative to `base`. */
export function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const abs = path.join(dir, e.name);
    return e.isDirectory() ? walk(abs, base) : [path.relative(base, abs).split(path.sep).join('/')];
  });
}

/** Every file of a folder as text, with archives decompressed (tar.gz → tar, zip → each entry). */
export async function everyText(dir: string): Promise<string[]> {
  const texts: string[] = [];
  for (const rel of walk(dir)) {
    const buf = readFileSync(path.join(dir, rel));
    texts.push(buf.toString('latin1'));
    if (rel.endsWith('.tar.gz')) {
      texts.push(gunzipSync(buf).toString('latin1'));
      for (const e of await readTarGz(buf)) texts.push(e.bytes.toString('latin1'));
    }
    if (rel.endsWith('.zip')) for (const e of readZip(buf)) texts.push(e.bytes.toString('latin1'));
  }
  return texts;
}
