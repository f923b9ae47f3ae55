/**
 * A skill's archives (`.tar.gz`, `.zip`) kept between builds (src/lib/file-cache.ts): their
 * bytes are a function of the files that go in (path, sha256, executable), the archive mtime and
 * the archiving code (archive.ts, tar-stream, Node's zlib), so that is their key. A rebuild puts
 * the archives of unchanged skills in place as hard links, each checked against its sha256,
 * and compresses only the changed ones: byte for byte what compressing them again would give.
 */
import { FileCache } from '../../lib/file-cache.ts';
import { codeFingerprint } from '../../lib/fingerprint.ts';
import { tarGz, zip, type ArchiveEntry } from './archive.ts';

/** An archive entry with the sha256 of its bytes (the file's, from the loader). */
export interface KeyedEntry extends ArchiveEntry {
  sha256: string;
}

export type ArchiveKind = 'tar.gz' | 'zip';

export interface ArchiveContext {
  cache: FileCache | undefined;
  /** The archiving code's fingerprint. */
  code: string;
  /** Skills whose archives were made, or all taken from the cache. */
  built: number;
  reused: number;
}

export function archiveContext(dir: string | undefined, log?: (line: string) => void): ArchiveContext {
  const code = codeFingerprint(import.meta.url, ['./archive.ts', './archive-cache.ts'], ['tar-stream']);
  return {
    cache: dir ? FileCache.open(dir, log ? { log } : {}) : undefined,
    code: `${code}:zlib-${process.versions.zlib}`,
    built: 0,
    reused: 0,
  };
}

/** Where an archive goes and how it is written (the feed's writer: folders made, bytes counted). */
export interface ArchiveTarget {
  /** The absolute path of the archive, its folder made. */
  path: string;
  write(bytes: Buffer): { sha256: string };
  /** Count a file placed from the cache. */
  placed(bytes: number): void;
}

/**
 * One archive of `entries` at `target`, from the cache when it holds a sound one, else made (and
 * kept for later builds). Returns its sha256 and whether it came from the cache.
 */
export async function writeArchive(
  kind: ArchiveKind,
  entries: readonly KeyedEntry[],
  mtime: number,
  target: ArchiveTarget,
  ctx: ArchiveContext,
): Promise<{ sha256: string; reused: boolean }> {
  const key = FileCache.key(
    kind,
    ctx.code,
    mtime,
    entries.map((e) => [e.path, e.sha256, e.executable === true]),
  );
  const placed = ctx.cache?.place(key, target.path);
  if (placed) {
    target.placed(placed.bytes);
    return { sha256: placed.sha256, reused: true };
  }
  const bytes = kind === 'zip' ? await zip(entries, mtime) : await tarGz(entries, mtime);
  const { sha256 } = target.write(bytes);
  ctx.cache?.adopt(key, target.path, sha256);
  return { sha256, reused: false };
}
