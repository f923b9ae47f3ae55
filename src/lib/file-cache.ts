/**
 * Files kept between builds in a folder of `.cache/`, each under a key: a sha256 of everything
 * the file is made from (its inputs and the fingerprint of the code that made it,
 * src/lib/fingerprint.ts), so an entry is never stale — changed inputs are a new key.
 *
 * An entry is named `<key>.<sha256 of its bytes>` and checked against that digest every time a
 * build uses it: a damaged entry (a flipped byte, a truncated file, an output edited in place
 * through a hard link) is noticed, removed and made again, never published. Entries are placed
 * into an output as hard links where the file system allows (no second copy on disk), else
 * copied. So an output's file edited in place also changes every other output built from this
 * cache until it is rebuilt (readers check digests and refuse it); replace a file, never
 * rewrite it. Writes are atomic. An entry's modification time is the last build that used it; entries
 * no build used for a week are removed. Deleting the folder is always safe: the next build makes
 * everything again.
 */
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  linkSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { sha256File, sha256Hex } from './hash.ts';

/** Entries unused this long are removed. */
const KEEP_MS = 7 * 24 * 3600 * 1000;
/** Pruning (a stat of every entry) runs at most this often. */
const PRUNE_EVERY_MS = 24 * 3600 * 1000;
const PRUNED_MARK = '.pruned';
const ENTRY = /^([0-9a-f]{64})\.([0-9a-f]{64})$/;

/** Hard-link `from` to `to`, or copy it where links are not possible (another file system, no link support). */
function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK') throw err;
    copyFileSync(from, to);
  }
}

/** A sound entry: the file holding it, and the sha256 of its bytes. */
export interface CacheEntry {
  file: string;
  sha256: string;
}

/**
 * The file operations are synchronous on purpose, like the feed's writes (src/emit/feed):
 * entries are small files, mostly in the page cache, where a trip through the thread pool costs
 * more than the operation (placing 2,500 file pages took 1.5 s through it).
 */
export class FileCache {
  readonly #dir: string;
  /** key → sha256 of the entry's bytes, as listed when the cache was opened or kept since. */
  readonly #entries: Map<string, string>;
  /** Whether the folder was made (once per build, not once per entry). */
  #madeDir = false;
  /** Entries used (and found sound), and found damaged, in this build. */
  hits = 0;
  damaged = 0;

  private constructor(dir: string, entries: Map<string, string>) {
    this.#dir = dir;
    this.#entries = entries;
  }

  static open(dir: string): FileCache {
    const entries = new Map<string, string>();
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      /* no cache yet */
    }
    for (const name of names) {
      const m = ENTRY.exec(name);
      if (m) entries.set(m[1]!, m[2]!);
    }
    return new FileCache(dir, entries);
  }

  /** The cache key of these inputs (strings, numbers, arrays and plain objects of them). */
  static key(...inputs: unknown[]): string {
    return sha256Hex(JSON.stringify(inputs));
  }

  #file(key: string, sha256: string): string {
    return path.join(this.#dir, `${key}.${sha256}`);
  }

  /**
   * The size of the bytes `found` (undefined: they could not be read) when they match the entry's
   * digest; a damaged entry is removed.
   */
  #sound(key: string, found: { sha256: string; bytes: number } | undefined): number | undefined {
    const sha256 = this.#entries.get(key)!;
    if (found?.sha256 === sha256) {
      this.hits++;
      return found.bytes;
    }
    if (found) this.damaged++;
    this.#entries.delete(key);
    rmSync(this.#file(key, sha256), { force: true });
    return undefined;
  }

  /** Mark an entry used now (its modification time; through a hard link, the output's too). */
  #touch(file: string): void {
    const now = new Date();
    try {
      utimesSync(file, now, now);
    } catch {
      /* removed meanwhile: used or not, it is gone */
    }
  }

  /** Whether an entry is recorded for `key` (unchecked: `place` and the others check it). */
  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /**
   * The sha256 recorded for the entry of `key` (unchecked: the caller checks the bytes it holds
   * against it), marking the entry used; undefined when there is none.
   */
  use(key: string): string | undefined {
    const sha256 = this.#entries.get(key);
    if (sha256 !== undefined) this.#touch(this.#file(key, sha256));
    return sha256;
  }

  /** The bytes of the entry for `key`, checked; undefined when there is none or it was damaged. */
  read(key: string): Buffer | undefined {
    const sha256 = this.#entries.get(key);
    if (sha256 === undefined) return undefined;
    const file = this.#file(key, sha256);
    let bytes: Buffer | undefined;
    try {
      bytes = readFileSync(file);
    } catch {
      bytes = undefined;
    }
    if (this.#sound(key, bytes && { sha256: sha256Hex(bytes), bytes: bytes.byteLength }) === undefined)
      return undefined;
    this.#touch(file);
    return bytes;
  }

  /** The file holding the entry for `key` and its sha256, checked; undefined when there is none or it was damaged. */
  entry(key: string): CacheEntry | undefined {
    const sha256 = this.#entries.get(key);
    if (sha256 === undefined) return undefined;
    const file = this.#file(key, sha256);
    if (this.#sound(key, sha256File(file)) === undefined) return undefined;
    this.#touch(file);
    return { file, sha256 };
  }

  /**
   * Put the entry for `key` at `dest` (a new file), checked there: its sha256 and size, or
   * undefined (and `dest` left absent) when there is none or it was damaged.
   */
  place(key: string, dest: string): { sha256: string; bytes: number } | undefined {
    const sha256 = this.#entries.get(key);
    if (sha256 === undefined) return undefined;
    const file = this.#file(key, sha256);
    try {
      linkOrCopy(file, dest);
    } catch {
      this.#entries.delete(key);
      return undefined;
    }
    const bytes = this.#sound(key, sha256File(dest));
    if (bytes === undefined) {
      rmSync(dest, { force: true });
      return undefined;
    }
    this.#touch(file);
    return { sha256, bytes };
  }

  /** Keep `bytes` under `key`. */
  write(key: string, bytes: Uint8Array | string): CacheEntry {
    const data = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    const sha256 = sha256Hex(data);
    const file = this.#file(key, sha256);
    this.#makeDir();
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(tmp, data);
    renameSync(tmp, file);
    this.#entries.set(key, sha256);
    return { file, sha256 };
  }

  /** Keep the file `file` (just written, whose bytes have this sha256) under `key`: a hard link to it where possible. */
  adopt(key: string, file: string, sha256: string): void {
    this.#makeDir();
    try {
      // Not atomic where it copies: an entry cut short is caught by its digest when used.
      linkOrCopy(file, this.#file(key, sha256));
    } catch (err) {
      // Kept already with these bytes (the same file twice in one build).
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    this.#entries.set(key, sha256);
  }

  #makeDir(): void {
    if (!this.#madeDir) mkdirSync(this.#dir, { recursive: true });
    this.#madeDir = true;
  }

  /** Remove entries (and leftover temporary files) no build used for a week; returns how many. Runs at most once a day. */
  prune(now = Date.now()): number {
    const mark = path.join(this.#dir, PRUNED_MARK);
    const last = statSync(mark, { throwIfNoEntry: false })?.mtimeMs;
    if (last !== undefined && now - last < PRUNE_EVERY_MS) return 0;
    let removed = 0;
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch {
      return 0;
    }
    for (const name of names) {
      if (name === PRUNED_MARK) continue;
      const file = path.join(this.#dir, name);
      const st = statSync(file, { throwIfNoEntry: false });
      if (st?.isFile() && now - st.mtimeMs > KEEP_MS) {
        unlinkSync(file);
        removed++;
      }
    }
    writeFileSync(mark, '');
    return removed;
  }
}

/**
 * `compute` through `cache`: its result for an input is kept under the input and `code` (the
 * fingerprint of the code that computes it, src/lib/fingerprint.ts), so a later build reads it
 * back instead of computing it again.
 */
export function keptText(
  cache: FileCache,
  code: string,
  compute: (input: string) => string,
): (input: string) => string {
  return (input) => {
    const key = FileCache.key(code, input);
    const kept = cache.read(key);
    if (kept) return kept.toString('utf8');
    const result = compute(input);
    cache.write(key, result);
    return result;
  };
}
