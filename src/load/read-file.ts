/** Turn one file's bytes into a stored SkillFile: UTF-8 text when it is text, base64 otherwise. */
import type { SkillFile } from '../model/skill.ts';
import { sha256Hex } from '../lib/hash.ts';
import { fileType, mimeType } from '../lib/mime.ts';

// ignoreBOM keeps a leading BOM in the text, so decoding and re-encoding is byte-exact.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Valid UTF-8 without NUL bytes decodes to text; anything else is binary. */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export function baseName(path: string): string {
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

/** A file listed but not stored; the sha256 is still computed so peers can tell it apart. */
export function skippedFile(path: string, bytes: Uint8Array | undefined, size: number, reason: string): SkillFile {
  const name = baseName(path);
  return {
    path,
    name,
    type: fileType(name),
    mime: mimeType(name, 'base64'),
    size,
    sha256: bytes ? sha256Hex(bytes) : '0'.repeat(64),
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
