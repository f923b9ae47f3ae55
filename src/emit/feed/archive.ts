/**
 * Deterministic skill archives: the same files give the same bytes. Entries are SKILL.md first
 * and then sorted by path, with a fixed mtime (SOURCE_DATE_EPOCH or 0), uid/gid 0, no user or
 * group names, mode 0755 for files starting with `#!` and 0644 otherwise; gzip without a name or
 * timestamp. The root of the archive holds SKILL.md (no wrapper folder).
 */
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { pack } from 'tar-stream';
import { zipSync, type Zippable } from 'fflate';
import { safeSegments } from './paths.ts';

export interface ArchiveEntry {
  /** Path inside the skill, `/`-separated (checked again here: no `..`, no absolute paths). */
  path: string;
  bytes: Uint8Array;
}

const SKILL_MD = 'SKILL.md';
const gzipAsync = promisify(gzip);
/** ZIP (DOS) timestamps cannot go before 1980. */
const ZIP_MIN_SECONDS = Date.UTC(1980, 0, 1, 0, 0, 0) / 1000;

function ordered(entries: readonly ArchiveEntry[]): ArchiveEntry[] {
  for (const e of entries) safeSegments(e.path);
  return [...entries].sort((a, b) => {
    if (a.path === SKILL_MD) return -1;
    if (b.path === SKILL_MD) return 1;
    return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  });
}

const isScript = (bytes: Uint8Array): boolean => bytes[0] === 0x23 && bytes[1] === 0x21; // "#!"
const modeOf = (bytes: Uint8Array): number => (isScript(bytes) ? 0o755 : 0o644);

export async function tarGz(entries: readonly ArchiveEntry[], mtimeSeconds: number): Promise<Buffer> {
  const tar = pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    tar.on('data', (c: unknown) => {
      chunks.push(c as Buffer);
    });
    tar.on('end', () => resolve());
    tar.on('error', reject);
  });
  const mtime = new Date(mtimeSeconds * 1000);
  for (const e of ordered(entries)) {
    tar.entry({ name: e.path, size: e.bytes.byteLength, mode: modeOf(e.bytes), mtime, uid: 0, gid: 0, uname: '', gname: '', type: 'file' }, e.bytes);
  }
  tar.finalize();
  await done;
  // Node's gzip header has no file name and mtime 0, so the bytes depend only on the input.
  // Async: compression runs on libuv's thread pool, beside the main thread's work.
  return gzipAsync(Buffer.concat(chunks), { level: 6 });
}

export function zip(entries: readonly ArchiveEntry[], mtimeSeconds: number): Buffer {
  // fflate writes the DOS time from local-time fields; give it a Date whose local fields are
  // the UTC time, so the bytes do not depend on the machine's time zone.
  const utc = new Date(Math.max(mtimeSeconds, ZIP_MIN_SECONDS) * 1000);
  const mtime = new Date(utc.getUTCFullYear(), utc.getUTCMonth(), utc.getUTCDate(), utc.getUTCHours(), utc.getUTCMinutes(), utc.getUTCSeconds());
  const files: Zippable = {};
  for (const e of ordered(entries)) {
    // os 3 = Unix, so `attrs` carries the file mode in its high 16 bits.
    files[e.path] = [e.bytes, { mtime, os: 3, attrs: (0o100000 | modeOf(e.bytes)) << 16, level: 6 }];
  }
  return Buffer.from(zipSync(files));
}
