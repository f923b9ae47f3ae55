/**
 * Deterministic skill archives: the same files give the same bytes. Entries are SKILL.md first
 * and then sorted by path, with a fixed mtime (SOURCE_DATE_EPOCH or 0), uid/gid 0, no user or
 * group names, mode 0755 for files executable on disk and 0644 otherwise; gzip without a name or
 * timestamp. The root of the archive holds SKILL.md (no wrapper folder).
 */
import { crc32, deflateRaw, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { pack } from 'tar-stream';
import { checkPath } from '../../lib/paths.ts';

export interface ArchiveEntry {
  /** Path inside the skill, `/`-separated (checked again here: no `..`, no absolute paths). */
  path: string;
  bytes: Uint8Array;
  /** Executable on disk (the loader records it): mode 0755, else 0644. */
  executable?: boolean;
}

const SKILL_MD = 'SKILL.md';
const gzipAsync = promisify(gzip);
const deflateRawAsync = promisify(deflateRaw);
/** ZIP (DOS) timestamps cannot go before 1980. */
const ZIP_MIN_SECONDS = Date.UTC(1980, 0, 1, 0, 0, 0) / 1000;

function ordered(entries: readonly ArchiveEntry[]): ArchiveEntry[] {
  for (const e of entries) checkPath(e.path);
  return [...entries].sort((a, b) => {
    if (a.path === SKILL_MD) return -1;
    if (b.path === SKILL_MD) return 1;
    return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  });
}

/** Formats that are compressed already: stored as they are in a ZIP (deflating them is wasted time). */
const COMPRESSED = /\.(png|jpe?g|gif|webp|avif|ico|pdf|zip|gz|tgz|bz2|xz|zst|7z|jar|whl|docx|xlsx|pptx|odt|woff2?|mp3|mp4|m4a|ogg|webm|mov)$/i;

const modeOf = (e: ArchiveEntry): number => (e.executable ? 0o755 : 0o644);

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
    tar.entry({ name: e.path, size: e.bytes.byteLength, mode: modeOf(e), mtime, uid: 0, gid: 0, uname: '', gname: '', type: 'file' }, e.bytes);
  }
  tar.finalize();
  await done;
  // Node's gzip header has no file name and mtime 0, so the bytes depend only on the input.
  // Async: compression runs on libuv's thread pool, beside the main thread's work.
  return gzipAsync(Buffer.concat(chunks), { level: 6 });
}

interface ZipEntryFields {
  method: number;
  dosTime: number;
  dosDate: number;
  crc: number;
  compressed: number;
  size: number;
  nameLength: number;
}

/**
 * The fields a local header and its central directory record share, in the same order (from
 * "version needed" to the name length); only their start differs (offset 4 and 6).
 */
function writeCommonFields(header: Buffer, at: number, f: ZipEntryFields): void {
  header.writeUInt16LE(20, at); // version needed: 2.0
  header.writeUInt16LE(0x0800, at + 2); // UTF-8 names
  header.writeUInt16LE(f.method, at + 4);
  header.writeUInt16LE(f.dosTime, at + 6);
  header.writeUInt16LE(f.dosDate, at + 8);
  header.writeUInt32LE(f.crc, at + 10);
  header.writeUInt32LE(f.compressed, at + 14);
  header.writeUInt32LE(f.size, at + 18);
  header.writeUInt16LE(f.nameLength, at + 22);
}

/**
 * A plain ZIP (no ZIP64: skill files stay far below 4 GiB) written here rather than with a
 * library so that deflate runs on libuv's thread pool like gzip does, off the main thread.
 * Names are UTF-8 (flag bit 11); "made by" Unix so the external attributes carry the mode; an
 * entry is stored instead of deflated when deflating does not make it smaller.
 */
export async function zip(entries: readonly ArchiveEntry[], mtimeSeconds: number): Promise<Buffer> {
  const t = new Date(Math.max(mtimeSeconds, ZIP_MIN_SECONDS) * 1000);
  const dosTime = (t.getUTCHours() << 11) | (t.getUTCMinutes() << 5) | (t.getUTCSeconds() >> 1);
  const dosDate = ((t.getUTCFullYear() - 1980) << 9) | ((t.getUTCMonth() + 1) << 5) | t.getUTCDate();
  const files = ordered(entries);
  const packed = await Promise.all(files.map((e) => (COMPRESSED.test(e.path) || e.bytes.byteLength === 0 ? undefined : deflateRawAsync(e.bytes, { level: 6 }))));
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  files.forEach((e, i) => {
    const name = Buffer.from(e.path, 'utf8');
    const deflated = packed[i] !== undefined && packed[i].byteLength < e.bytes.byteLength;
    const data = deflated ? packed[i]! : Buffer.from(e.bytes);
    const crc = crc32(e.bytes);
    const fields = { method: deflated ? 8 : 0, dosTime, dosDate, crc, compressed: data.byteLength, size: e.bytes.byteLength, nameLength: name.byteLength };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeCommonFields(local, 4, fields);
    // extra length: 0
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, 2.0
    writeCommonFields(central, 6, fields);
    // extra length, comment length, disk number, internal attributes: 0
    central.writeUInt32LE(((0o100000 | modeOf(e)) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.byteLength + name.byteLength + data.byteLength;
  });
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.byteLength, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
