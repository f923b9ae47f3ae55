/**
 * Deterministic skill archives: the same files give the same bytes. Entries are SKILL.md first
 * and then sorted by path, with a fixed mtime (SOURCE_DATE_EPOCH or 0), uid/gid 0, no user or
 * group names, mode 0755 for files executable on disk and 0644 otherwise; gzip without a name or
 * timestamp. The root of the archive holds SKILL.md (no wrapper folder).
 */
import { crc32, createGzip, deflateRaw, deflateRawSync } from 'node:zlib';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { pack } from 'tar-stream';
import { checkPath } from '../../lib/paths.ts';
import { pMap } from '../../lib/p-map.ts';

export interface ArchiveEntry {
  /** Path inside the skill, `/`-separated (checked again here: no `..`, no absolute paths). */
  path: string;
  bytes: Uint8Array;
  /** Executable on disk (the loader records it): mode 0755, else 0644. */
  executable?: boolean;
}

const SKILL_MD = 'SKILL.md';
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
const COMPRESSED =
  /\.(png|jpe?g|gif|webp|avif|ico|pdf|zip|gz|tgz|bz2|xz|zst|7z|jar|whl|docx|xlsx|pptx|odt|woff2?|mp3|mp4|m4a|ogg|webm|mov)$/i;

const modeOf = (e: ArchiveEntry): number => (e.executable ? 0o755 : 0o644);

/** Bytes handed to gzip at once: each write is a trip through the thread pool, and tar writes 512-byte pieces. */
const GZIP_BATCH_BYTES = 1024 * 1024;

/** A stream that passes its input on in pieces of at least `bytes` (the last one smaller). */
function batches(bytes: number): Transform {
  let held: Buffer[] = [];
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      held.push(chunk);
      size += chunk.byteLength;
      if (size >= bytes) {
        this.push(Buffer.concat(held));
        held = [];
        size = 0;
      }
      done();
    },
    flush(done) {
      if (size > 0) this.push(Buffer.concat(held));
      done();
    },
  });
}

/**
 * The tar streamed through gzip, so the uncompressed tar (1 KiB per small file: 67 MB for
 * 66,000 files) is never held whole. Node's gzip header has no file name and mtime 0, so the
 * bytes depend only on the input; compression runs on libuv's thread pool.
 */
export async function tarGz(entries: readonly ArchiveEntry[], mtimeSeconds: number): Promise<Buffer> {
  const tar = pack();
  const compressed: Buffer[] = [];
  const collect = new Writable({
    write(chunk: Buffer, _encoding, done) {
      compressed.push(chunk);
      done();
    },
  });
  const finished = pipeline(tar, batches(GZIP_BATCH_BYTES), createGzip({ level: 6 }), collect);
  const mtime = new Date(mtimeSeconds * 1000);
  // One entry at a time: tar-stream queues entries added while one is open in an array it
  // shifts from, which is quadratic (66,000 entries added at once took 2.7 s).
  for (const e of ordered(entries)) {
    await new Promise<void>((resolve, reject) => {
      tar.entry(
        {
          name: e.path,
          size: e.bytes.byteLength,
          mode: modeOf(e),
          mtime,
          uid: 0,
          gid: 0,
          uname: '',
          gname: '',
          type: 'file',
        },
        e.bytes,
        (err) => (err ? reject(err) : resolve()),
      );
    });
  }
  tar.finalize();
  await finished;
  return Buffer.concat(compressed);
}

interface ZipEntryFields {
  method: number;
  dosTime: number;
  dosDate: number;
  crc: number;
  compressed: number;
  size: number;
  nameLength: number;
  /** ZIP64 needed for this entry: "version needed" 4.5 instead of 2.0. */
  zip64: boolean;
}

/** Largest value of a 32-bit field; this value itself means "see the ZIP64 field". */
const MAX32 = 0xffffffff;
/** Largest entry count the plain end record holds. */
const MAX16 = 0xffff;
const VERSION = 20;
const VERSION_ZIP64 = 45;
/** How many entries of one archive are deflated at a time: each holds ~300 KB of zlib state. */
const DEFLATE_CONCURRENCY = 4;
/** Entries up to this size are deflated on the main thread: a trip through the thread pool costs more (14 µs against 37 µs for a small file). */
const SYNC_DEFLATE_BYTES = 16 * 1024;

function deflate(bytes: Uint8Array): Buffer | Promise<Buffer> {
  return bytes.byteLength <= SYNC_DEFLATE_BYTES
    ? deflateRawSync(bytes, { level: 6 })
    : deflateRawAsync(bytes, { level: 6 });
}

/**
 * The fields a local header and its central directory record share, in the same order (from
 * "version needed" to the name length); only their start differs (offset 4 and 6). A size that
 * does not fit 32 bits is written as 0xFFFFFFFF, its value in the ZIP64 extra field.
 */
function writeCommonFields(header: Buffer, at: number, f: ZipEntryFields): void {
  header.writeUInt16LE(f.zip64 ? VERSION_ZIP64 : VERSION, at);
  header.writeUInt16LE(0x0800, at + 2); // UTF-8 names
  header.writeUInt16LE(f.method, at + 4);
  header.writeUInt16LE(f.dosTime, at + 6);
  header.writeUInt16LE(f.dosDate, at + 8);
  header.writeUInt32LE(f.crc, at + 10);
  header.writeUInt32LE(Math.min(f.compressed, MAX32), at + 14);
  header.writeUInt32LE(Math.min(f.size, MAX32), at + 18);
  header.writeUInt16LE(f.nameLength, at + 22);
}

/** The ZIP64 extended-information extra field (id 1) holding the given 64-bit values, in order. */
function zip64Extra(values: number[]): Buffer {
  if (values.length === 0) return Buffer.alloc(0);
  const extra = Buffer.alloc(4 + 8 * values.length);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(8 * values.length, 2);
  values.forEach((v, i) => extra.writeBigUInt64LE(BigInt(v), 4 + 8 * i));
  return extra;
}

interface PackedEntry {
  name: Buffer;
  data: Buffer;
  fields: ZipEntryFields;
  mode: number;
}

/** One entry's bytes as stored: deflated when that makes it smaller and it is not compressed already. */
async function packEntry(e: ArchiveEntry, dosTime: number, dosDate: number): Promise<PackedEntry> {
  const deflated = COMPRESSED.test(e.path) || e.bytes.byteLength === 0 ? undefined : await deflate(e.bytes);
  const useDeflated = deflated !== undefined && deflated.byteLength < e.bytes.byteLength;
  // Copied to its own size: zlib returns a view of a 16 KiB output chunk, which 66,000 small entries turned into 1 GB.
  const data = useDeflated
    ? Buffer.from(deflated)
    : Buffer.from(e.bytes.buffer, e.bytes.byteOffset, e.bytes.byteLength);
  const name = Buffer.from(e.path, 'utf8');
  const size = e.bytes.byteLength;
  const fields = {
    method: useDeflated ? 8 : 0,
    dosTime,
    dosDate,
    crc: crc32(e.bytes),
    compressed: data.byteLength,
    size,
    nameLength: name.byteLength,
    zip64: size >= MAX32 || data.byteLength >= MAX32,
  };
  return { name, data, fields, mode: modeOf(e) };
}

/** Local header + name + data, and the central directory record pointing at it. */
function entryRecords(p: PackedEntry, offset: number): { local: Buffer[]; central: Buffer[] } {
  const sizes64 = p.fields.zip64 ? [p.fields.size, p.fields.compressed] : [];
  const fields = { ...p.fields, zip64: p.fields.zip64 || offset >= MAX32 };
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  writeCommonFields(local, 4, fields);
  const localExtra = zip64Extra(sizes64);
  local.writeUInt16LE(localExtra.byteLength, 28);
  const centralExtra = zip64Extra(offset >= MAX32 ? [...sizes64, offset] : sizes64);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE((3 << 8) | (fields.zip64 ? VERSION_ZIP64 : VERSION), 4); // made by Unix
  writeCommonFields(central, 6, fields);
  central.writeUInt16LE(centralExtra.byteLength, 30);
  // comment length, disk number, internal attributes: 0
  central.writeUInt32LE(((0o100000 | p.mode) << 16) >>> 0, 38);
  central.writeUInt32LE(Math.min(offset, MAX32), 42);
  return { local: [local, p.name, localExtra, p.data], central: [central, p.name, centralExtra] };
}

/**
 * The end of the archive: the end-of-central-directory record, preceded by the ZIP64 end
 * record and its locator when the entry count, the directory's size or its offset do not fit.
 */
function endRecords(count: number, size: number, offset: number): Buffer[] {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, MAX16), 8);
  end.writeUInt16LE(Math.min(count, MAX16), 10);
  end.writeUInt32LE(Math.min(size, MAX32), 12);
  end.writeUInt32LE(Math.min(offset, MAX32), 16);
  if (count < MAX16 && size < MAX32 && offset < MAX32) return [end];
  const end64 = Buffer.alloc(56);
  end64.writeUInt32LE(0x06064b50, 0);
  end64.writeBigUInt64LE(44n, 4); // size of the rest of this record
  end64.writeUInt16LE((3 << 8) | VERSION_ZIP64, 12);
  end64.writeUInt16LE(VERSION_ZIP64, 14);
  // this disk, the directory's disk: 0
  end64.writeBigUInt64LE(BigInt(count), 24);
  end64.writeBigUInt64LE(BigInt(count), 32);
  end64.writeBigUInt64LE(BigInt(size), 40);
  end64.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + size), 8); // where the ZIP64 end record starts
  locator.writeUInt32LE(1, 16); // total disks
  return [end64, locator, end];
}

/**
 * A ZIP written here rather than with a library so that deflate runs on libuv's thread pool
 * like gzip does, off the main thread, a few entries at a time (small ones on the main thread). Names are UTF-8 (flag bit 11);
 * "made by" Unix so the external attributes carry the mode; an entry is stored instead of
 * deflated when deflating does not make it smaller. ZIP64 records are added only where a
 * count, size or offset does not fit the plain format (more than 65,535 entries, 4 GiB), so
 * ordinary archives stay plain ZIP.
 */
export async function zip(entries: readonly ArchiveEntry[], mtimeSeconds: number): Promise<Buffer> {
  const t = new Date(Math.max(mtimeSeconds, ZIP_MIN_SECONDS) * 1000);
  const dosTime = (t.getUTCHours() << 11) | (t.getUTCMinutes() << 5) | (t.getUTCSeconds() >> 1);
  const dosDate = ((t.getUTCFullYear() - 1980) << 9) | ((t.getUTCMonth() + 1) << 5) | t.getUTCDate();
  const packed = await pMap(ordered(entries), (e) => packEntry(e, dosTime, dosDate), DEFLATE_CONCURRENCY);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  let directorySize = 0;
  for (const p of packed) {
    const records = entryRecords(p, offset);
    locals.push(...records.local);
    centrals.push(...records.central);
    for (const b of records.local) offset += b.byteLength;
    for (const b of records.central) directorySize += b.byteLength;
  }
  return Buffer.concat([...locals, ...centrals, ...endRecords(packed.length, directorySize, offset)]);
}
