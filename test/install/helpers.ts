/** Build .tar.gz and .zip skill archives (good and malicious) and a discovery index for tests. */
import { gzipSync } from 'node:zlib';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { zipSync } from 'fflate';
import tar from 'tar-stream';
import { sha256Hex } from '../../src/lib/hash.ts';

export interface Entry {
  name: string;
  data?: string | Uint8Array;
  type?: 'file' | 'symlink' | 'link' | 'directory';
  linkname?: string;
  /** The mode the archive records: tar's mode field; for zip, the whole st_mode in the external attributes (default 0100644). */
  mode?: number;
}

export async function tarGz(entries: Entry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c: unknown) => void chunks.push(c as Buffer));
  const done = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  for (const e of entries) {
    const type = e.type ?? 'file';
    if (type === 'file') pack.entry({ name: e.name, type, mode: e.mode ?? 0o644 }, Buffer.from(e.data ?? ''));
    else pack.entry({ name: e.name, type, linkname: e.linkname, mode: 0o755 });
  }
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

/**
 * A zip; a `symlink` entry gets Unix mode 0120777 in its external attributes, as `zip -y` writes.
 * `mode: 0o600` without file-type bits is what Python's `zipfile.writestr` writes.
 */
export function zip(entries: Entry[]): Buffer {
  const files: Record<string, [Uint8Array, { os: number; attrs: number }]> = {};
  for (const e of entries) {
    const data =
      typeof e.data === 'string' || e.data === undefined
        ? new TextEncoder().encode(e.type === 'symlink' ? e.linkname : (e.data ?? ''))
        : e.data;
    const mode = e.mode ?? (e.type === 'symlink' ? 0o120777 : 0o100644);
    files[e.name] = [data, { os: 3, attrs: (mode << 16) >>> 0 }];
  }
  return Buffer.from(zipSync(files));
}

export const skillMdText = (name: string) =>
  `---\nname: ${name}\ndescription: The ${name} skill. Use it for ${name}.\n---\n\n# ${name}\n`;

export interface DiscoveryItem {
  name: string;
  type: string;
  file: string;
  bytes: Buffer;
  /** Publish this digest instead of the true one. */
  digest?: string;
}

/** Write `<site>/.well-known/agent-skills/index.json` and its artifacts. */
export async function writeDiscovery(site: string, items: DiscoveryItem[]): Promise<void> {
  const base = path.join(site, '.well-known', 'agent-skills');
  for (const item of items) {
    await mkdir(path.dirname(path.join(base, item.file)), { recursive: true });
    await writeFile(path.join(base, item.file), item.bytes);
  }
  const index = {
    $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
    skills: items.map((i) => ({
      name: i.name,
      type: i.type,
      description: `The ${i.name} skill.`,
      url: `/.well-known/agent-skills/${i.file}`,
      digest: i.digest ?? `sha256:${sha256Hex(i.bytes)}`,
    })),
  };
  await writeFile(path.join(base, 'index.json'), JSON.stringify(index, null, 2));
}
