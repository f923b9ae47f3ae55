/**
 * Unpack a skill archive (.tar.gz or .zip) into memory, refusing anything that could write
 * outside the skill folder or surprise the agent: `..`, absolute or backslash paths, links,
 * devices, duplicate entries, a file that is also a folder, encrypted entries, and more than
 * `maxBytes` unpacked (so a compression bomb stops early). Names the build ignores (`.git/`,
 * `__pycache__/`…) are left out, as the build leaves them out. Of an entry's mode only the
 * executable bits count (never setuid, setgid or sticky). Nothing touches the disk here.
 */
import { gunzipSync, inflateRawSync } from 'node:zlib';
import tar from 'tar-stream';
import { InvalidInputError, UnsafePathError, errorMessage } from '../lib/errors.ts';
import { DEFAULT_IGNORE, ignoreMatcher } from '../lib/ignore.ts';
import { fileTreeProblem, pathProblem, quotePath } from '../lib/paths.ts';

/** One file to install: its bytes, and whether it is executable. */
export interface InstallFile {
  bytes: Buffer;
  executable: boolean;
}

export type Files = Map<string, InstallFile>;

export interface Unpacked {
  files: Files;
  /** Entries left out by the build's ignore rules (`.git/…`). */
  ignored: string[];
}

const invalid = (message: string): InvalidInputError => new InvalidInputError(message, { rule: 'archive' });
const ignore = ignoreMatcher(DEFAULT_IGNORE);

/** Whether the build would ignore this path (a folder or file name it never publishes). */
function ignored(p: string): boolean {
  const segments = p.split('/');
  return segments.slice(0, -1).some((s) => ignore.dir(s)) || ignore.file(segments.at(-1)!);
}

function detectArchive(bytes: Uint8Array): 'tar.gz' | 'zip' | undefined {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'tar.gz';
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return 'zip';
  return undefined;
}

export async function unpack(bytes: Buffer, maxBytes: number): Promise<Unpacked> {
  const kind = detectArchive(bytes);
  if (!kind) throw invalid('archive is neither .tar.gz nor .zip');
  const files = kind === 'tar.gz' ? await untarGz(bytes, maxBytes) : unzip(bytes, maxBytes);
  const clash = fileTreeProblem([...files.keys()]);
  if (clash) throw new UnsafePathError(`archive: ${clash}`, { rule: 'unsafe-path' });
  const kept: Files = new Map();
  const left: string[] = [];
  for (const [p, file] of files) {
    if (ignored(p)) left.push(p);
    else kept.set(p, file);
  }
  return { files: kept, ignored: left };
}

/** An archive entry name → a safe skill-relative path, or undefined for the root itself. */
function entryPath(name: string, isDir: boolean): string | undefined {
  let p = name.startsWith('./') ? name.slice(2) : name;
  if (isDir || p.endsWith('/')) p = p.replace(/\/+$/, '');
  if (p === '' || p === '.') return undefined;
  const unsafe = pathProblem(p);
  if (unsafe) throw new UnsafePathError(`entry ${quotePath(name)}: path ${unsafe}`, { rule: 'unsafe-path' });
  return p;
}

/** Executable when any executable bit of its mode is set; nothing else of the mode is kept. */
const isExecutable = (mode: number | undefined): boolean => ((mode ?? 0) & 0o111) !== 0;

function add(
  files: Files,
  name: string,
  data: Buffer,
  mode: number | undefined,
  budget: { left: number; max: number },
): void {
  const p = entryPath(name, false);
  if (p === undefined) throw invalid(`entry ${quotePath(name)} is not a file name`);
  if (files.has(p)) throw invalid(`entry ${quotePath(p)} appears twice`);
  budget.left -= data.byteLength;
  if (budget.left < 0) throw invalid(`archive unpacks to more than ${budget.max} bytes`);
  files.set(p, { bytes: data, executable: isExecutable(mode) });
}

async function untarGz(bytes: Buffer, maxBytes: number): Promise<Files> {
  let raw: Buffer;
  try {
    raw = gunzipSync(bytes, { maxOutputLength: maxBytes + 64 * 1024 });
  } catch (err) {
    if (isTooLarge(err)) throw invalid(`archive unpacks to more than ${maxBytes} bytes`);
    throw invalid(`gzip: ${errorMessage(err)}`);
  }
  const files: Files = new Map();
  const budget = { left: maxBytes, max: maxBytes };
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const fail = (message: string): void => {
        stream.resume();
        extract.destroy(invalid(message));
      };
      if (header.type === 'directory') {
        try {
          entryPath(header.name, true);
        } catch (err) {
          return fail(errorMessage(err));
        }
        stream.on('end', next).resume();
        return;
      }
      if (header.type !== 'file' && header.type !== 'contiguous-file') {
        return fail(
          `entry ${quotePath(header.name)} is a ${header.type}${header.linkname ? ` to ${quotePath(header.linkname)}` : ''}; only regular files are accepted`,
        );
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: unknown) => void chunks.push(c as Buffer));
      stream.on('end', () => {
        try {
          add(files, header.name, Buffer.concat(chunks), header.mode, budget);
          next();
        } catch (err) {
          extract.destroy(err instanceof Error ? err : new Error(errorMessage(err)));
        }
      });
    });
    extract.on('finish', resolve);
    extract.on('error', (err) =>
      reject(err instanceof InvalidInputError || err instanceof UnsafePathError ? err : invalid(`tar: ${err.message}`)),
    );
  });
  extract.end(raw);
  await done;
  return files;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/**
 * A small ZIP reader over the central directory — it is the only place that records whether
 * an entry is a symlink (Unix mode in the external attributes), which general unzip helpers
 * do not expose.
 */
function unzip(bytes: Buffer, maxBytes: number): Files {
  const eocd = findEocd(bytes);
  const count = bytes.readUInt16LE(eocd + 10);
  let at = bytes.readUInt32LE(eocd + 16);
  const files: Files = new Map();
  const budget = { left: maxBytes, max: maxBytes };
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50)
      throw invalid('zip: central directory is damaged');
    const madeBy = bytes.readUInt16LE(at + 4) >> 8;
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    const compressed = bytes.readUInt32LE(at + 20);
    const size = bytes.readUInt32LE(at + 24);
    const nameLen = bytes.readUInt16LE(at + 28);
    const extraLen = bytes.readUInt16LE(at + 30);
    const commentLen = bytes.readUInt16LE(at + 32);
    const mode = bytes.readUInt32LE(at + 38) >>> 16;
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLen).toString('utf8');
    at += 46 + nameLen + extraLen + commentLen;

    const isDir = name.endsWith('/');
    // Host 3 is Unix: the high 16 bits of the external attributes are st_mode. Writers that set
    // only the permission bits (Python's writestr: 0600) leave the type 0, a regular file.
    const type = madeBy === 3 ? mode & S_IFMT : 0;
    if (type === 0o120000) throw invalid(`entry ${quotePath(name)} is a symlink; only regular files are accepted`);
    if (type !== 0 && type !== S_IFREG && type !== S_IFDIR)
      throw invalid(`entry ${quotePath(name)} is not a regular file (mode ${mode.toString(8)})`);
    if (isDir) {
      entryPath(name, true);
      continue;
    }
    if (flags & 1) throw invalid(`entry ${quotePath(name)} is encrypted`);
    if (compressed === 0xffffffff || size === 0xffffffff)
      throw invalid(`entry ${quotePath(name)}: ZIP64 archives are not supported`);
    if (size > budget.left) throw invalid(`archive unpacks to more than ${maxBytes} bytes`);
    entryPath(name, false);
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== 0x04034b50)
      throw invalid(`zip: entry ${quotePath(name)} has no local header`);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = bytes.subarray(start, start + compressed);
    if (data.length !== compressed) throw invalid(`zip: entry ${quotePath(name)} is truncated`);
    let out: Buffer;
    if (method === 0) out = Buffer.from(data);
    else if (method === 8) {
      try {
        // One byte of room beyond the declared size: an entry that inflates to more stops there
        // (zlib refuses to grow the output) and is refused below, never inflated in full.
        out = inflateRawSync(data, { maxOutputLength: size + 1 });
      } catch (err) {
        if (isTooLarge(err))
          throw invalid(`zip: entry ${quotePath(name)} unpacks to more than the ${size} bytes it declares`);
        throw invalid(`zip: entry ${quotePath(name)}: ${errorMessage(err)}`);
      }
    } else
      throw invalid(
        `entry ${quotePath(name)} uses compression method ${method}; only stored and deflate are supported`,
      );
    if (out.length !== size)
      throw invalid(`zip: entry ${quotePath(name)} unpacks to ${out.length} bytes, not the ${size} it declares`);
    add(files, name, out, madeBy === 3 ? mode : undefined, budget);
  }
  return files;
}

/** zlib's refusal to produce more than `maxOutputLength` bytes. */
function isTooLarge(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === 'ERR_BUFFER_TOO_LARGE';
}

function findEocd(bytes: Buffer): number {
  const min = Math.max(0, bytes.length - 22 - 0xffff);
  for (let i = bytes.length - 22; i >= min; i--) {
    if (bytes.readUInt32LE(i) === 0x06054b50) return i;
  }
  throw invalid('zip: end of central directory not found');
}
