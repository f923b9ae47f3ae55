/**
 * Files kept between builds in a folder of `.cache/`, each under a key: a sha256 of everything
 * the file is made from (its inputs and the fingerprint of the code that made it,
 * src/lib/fingerprint.ts), so an entry is never stale — changed inputs are a new key.
 *
 * An entry is named `<key>.<sha256 of its bytes>` and checked against that digest every time a
 * build uses it: a damaged entry (a flipped byte, a truncated file, an output edited in place
 * through a hard link) is noticed, removed and made again, never published. Entries are placed
 * into an output as hard links where the file system allows (no second copy on disk), else
 * copied. Writes are atomic. An entry's modification time is the last build that used it; entries
 * no build used for a week are removed. Deleting the folder is always safe: the next build makes
 * everything again.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, link, mkdir, readFile, readdir, rename, rm, stat, unlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { atomicWrite } from './fs.ts';

/** Entries unused this long are removed. */
const KEEP_MS = 7 * 24 * 3600 * 1000;
const ENTRY = /^([0-9a-f]{64})\.([0-9a-f]{64})$/;

const sha256Of = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Hard-link `from` to `to`, or copy it where links are not possible (another file system, no link support). */
async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK') throw err;
    await copyFile(from, to);
  }
}

/** A sound entry: the file holding it, and the sha256 of its bytes. */
export interface CacheEntry {
  file: string;
  sha256: string;
}

export class FileCache {
  readonly #dir: string;
  /** key → sha256 of the entry's bytes, as listed when the cache was opened or kept since. */
  readonly #entries: Map<string, string>;
  /** Entries used (and found sound), kept, and found damaged in this build. */
  hits = 0;
  kept = 0;
  damaged = 0;

  private constructor(dir: string, entries: Map<string, string>) {
    this.#dir = dir;
    this.#entries = entries;
  }

  static async open(dir: string): Promise<FileCache> {
    const entries = new Map<string, string>();
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const m = ENTRY.exec(name);
      if (m) entries.set(m[1]!, m[2]!);
    }
    return new FileCache(dir, entries);
  }

  /** The cache key of these inputs (strings, numbers, arrays and plain objects of them). */
  static key(...inputs: unknown[]): string {
    return createHash('sha256').update(JSON.stringify(inputs)).digest('hex');
  }

  #file(key: string, sha256: string): string {
    return path.join(this.#dir, `${key}.${sha256}`);
  }

  /** The entry's bytes when they match its digest; a damaged entry is removed. */
  async #sound(key: string, at: string): Promise<Buffer | undefined> {
    const sha256 = this.#entries.get(key)!;
    const bytes = await readFile(at).catch(() => undefined);
    if (bytes && sha256Of(bytes) === sha256) return bytes;
    if (bytes) this.damaged++;
    this.#entries.delete(key);
    await rm(this.#file(key, sha256), { force: true });
    return undefined;
  }

  async #touch(key: string): Promise<void> {
    const now = new Date();
    await utimes(this.#file(key, this.#entries.get(key)!), now, now).catch(() => {});
    this.hits++;
  }

  /** The file holding the entry for `key` and its sha256, checked; undefined when there is none or it was damaged. */
  async entry(key: string): Promise<CacheEntry | undefined> {
    const sha256 = this.#entries.get(key);
    if (sha256 === undefined) return undefined;
    const file = this.#file(key, sha256);
    if (!(await this.#sound(key, file))) return undefined;
    await this.#touch(key);
    return { file, sha256 };
  }

  /**
   * Put the entry for `key` at `dest` (a new file), checked there: its sha256 and size, or
   * undefined (and `dest` left absent) when there is none or it was damaged.
   */
  async place(key: string, dest: string): Promise<{ sha256: string; bytes: number } | undefined> {
    const sha256 = this.#entries.get(key);
    if (sha256 === undefined) return undefined;
    try {
      await linkOrCopy(this.#file(key, sha256), dest);
    } catch {
      this.#entries.delete(key);
      return undefined;
    }
    const bytes = await this.#sound(key, dest);
    if (bytes) {
      await this.#touch(key);
      return { sha256, bytes: bytes.byteLength };
    }
    await unlink(dest).catch(() => {});
    return undefined;
  }

  /** Keep `bytes` under `key`. */
  async write(key: string, bytes: Uint8Array | string): Promise<CacheEntry> {
    const data = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    const sha256 = sha256Of(data);
    const file = this.#file(key, sha256);
    await atomicWrite(file, data);
    this.#entries.set(key, sha256);
    this.kept++;
    return { file, sha256 };
  }

  /** Keep the file `file` (just written, whose bytes have this sha256) under `key`: a hard link to it where possible. */
  async adopt(key: string, file: string, sha256: string): Promise<void> {
    await mkdir(this.#dir, { recursive: true });
    const entry = this.#file(key, sha256);
    const tmp = `${entry}.${randomBytes(6).toString('hex')}.tmp`;
    await linkOrCopy(file, tmp);
    await rename(tmp, entry);
    this.#entries.set(key, sha256);
    this.kept++;
  }

  /** Remove entries (and leftover temporary files) no build used for a week; returns how many. */
  async prune(now = Date.now()): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.#dir).catch(() => [] as string[])) {
      const file = path.join(this.#dir, name);
      const st = await stat(file).catch(() => undefined);
      if (st?.isFile() && now - st.mtimeMs > KEEP_MS) {
        await rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }
}
