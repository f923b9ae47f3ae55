/** Turn one file's bytes into a stored SkillFile: UTF-8 text when it is text, base64 otherwise. */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { SkillFile } from '../model/skill.ts';
import { sha256Hex } from '../lib/hash.ts';
import { fileType, mimeType } from '../lib/mime.ts';
import { errorMessage } from '../lib/errors.ts';

// ignoreBOM keeps a leading BOM in the text, so decoding and re-encoding is byte-exact.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Valid UTF-8 without NUL bytes decodes to text; anything else is binary. */
function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function storedFile(path: string, bytes: Uint8Array): SkillFile {
  const name = baseName(path);
  const text = decodeText(bytes);
  const encoding = text === undefined ? 'base64' : 'utf-8';
  return {
    path,
    name,
    type: fileType(name),
    mime: mimeType(name, encoding),
    size: bytes.byteLength,
    sha256: sha256Hex(bytes),
    encoding,
    content: text ?? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
  };
}

/**
 * A file listed but not stored. Its sha256 is kept when known (a file over the size limit is
 * still hashed, so peers can tell it apart); zeros when its bytes were never read.
 */
export function skippedFile(path: string, sha256: string | undefined, size: number, reason: string): SkillFile {
  const name = baseName(path);
  return {
    path,
    name,
    type: fileType(name),
    mime: mimeType(name, 'base64'),
    size,
    sha256: sha256 ?? '0'.repeat(64),
    encoding: 'base64',
    skipped: { reason },
  };
}

/** The bytes of a stored file, back from its content. */
export function fileBytes(file: Pick<SkillFile, 'content' | 'encoding'>): Buffer {
  if (file.content === undefined) throw new Error('file was not stored');
  return file.encoding === 'base64' ? Buffer.from(file.content, 'base64') : Buffer.from(file.content, 'utf8');
}

/** Content digest of a skill: sha256 over its sorted "path\0sha256\n" lines. */
export function skillDigest(files: readonly Pick<SkillFile, 'path' | 'sha256'>[]): string {
  const lines = files
    .map((f) => `${f.path}\0${f.sha256}\n`)
    .sort()
    .join('');
  return `sha256:${sha256Hex(lines)}`;
}

/** What reading one file from disk gave: stored bytes, a file over the limit (hashed, not kept), or an error. */
export type DiskRead =
  | { kind: 'stored'; file: SkillFile; mtimeMs: number }
  | { kind: 'too-large'; size: number; sha256: string; mtimeMs: number }
  | { kind: 'unreadable'; code: string };

const HASH_CHUNK = 1024 * 1024;
let scratch = Buffer.allocUnsafe(64 * 1024);

/**
 * Read one skill file with a single open/fstat/read/close. Synchronous on purpose: skill files
 * are small and usually in the page cache, where a direct read costs microseconds and a trip
 * through the thread pool costs more than the read itself (about 5x slower overall when
 * loading 50,000 files; see bench/load.ts). A file over `maxFileBytes` is hashed in chunks and
 * never held in memory whole. Opened non-blocking: a file swapped for a pipe after the walk
 * must not hang the build (it is refused as not a regular file).
 */
export function readFileFromDisk(abs: string, rel: string, maxFileBytes: number): DiskRead {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    return { kind: 'unreadable', code: (err as NodeJS.ErrnoException).code ?? errorMessage(err) };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { kind: 'unreadable', code: 'not a regular file' };
    if (st.size > maxFileBytes) {
      const hash = createHash('sha256');
      const chunk = Buffer.allocUnsafe(HASH_CHUNK);
      let size = 0;
      for (let n; (n = readSync(fd, chunk, 0, HASH_CHUNK, size)) > 0; size += n) hash.update(chunk.subarray(0, n));
      return { kind: 'too-large', size, sha256: hash.digest('hex'), mtimeMs: st.mtimeMs };
    }
    // storedFile keeps only strings made from the bytes, so one scratch buffer serves every read.
    if (scratch.byteLength < st.size) scratch = Buffer.allocUnsafe(Math.max(st.size, scratch.byteLength * 2));
    let read = 0;
    for (let n; read < st.size && (n = readSync(fd, scratch, read, st.size - read, read)) > 0;) read += n;
    const file = storedFile(rel, scratch.subarray(0, read));
    // Executable by anyone on disk: published as executable (archives 0755, install keeps it).
    if (st.mode & 0o111) file.executable = true;
    return { kind: 'stored', file, mtimeMs: st.mtimeMs };
  } catch (err) {
    return { kind: 'unreadable', code: (err as NodeJS.ErrnoException).code ?? errorMessage(err) };
  } finally {
    closeSync(fd);
  }
}
