/**
 * Files kept between builds in a folder of `.cache/`, each under a key: a sha256 of everything
 * the file is made from (its inputs and the fingerprint of the code that made it,
 * src/lib/fingerprint.ts), so an entry is never stale — changed inputs are a new key.
 *
 * Whoever can write to `.cache/` (a CI cache restored from another run, another user of the
 * machine) must not be able to have a build publish bytes it did not make. So a cache is one of
 * two kinds, and an entry is checked every time a build uses it:
 *
 * - `content`: the key is the sha256 of the bytes themselves (the feed's raw files). An entry is
 *   named `<sha256>.<sha256>` and used only when the bytes read hash to the key.
 * - `derived`: the key is a digest of the inputs (archives, rendered pages, body terms). Its
 *   bytes cannot be checked against the key, so an entry is named `<key>.<sha256>.<tag>`, the tag
 *   an HMAC of key and digest under a secret kept outside `.cache/` (src/lib/cache-secret.ts),
 *   and used only when the tag verifies and the bytes hash to the digest.
 *
 * A file that is not a regular file (a symbolic link, a folder) is never followed: reads use
 * O_NOFOLLOW, placed entries are checked with lstat. A bad entry (damaged, renamed, unsigned,
 * a link) is removed, said through `log` (naming it) and made again, never published. Entries
 * are placed into an output as hard links where the file system allows (no second copy on
 * disk), else copied. So an output's file edited in place also changes every other output built
 * from this cache until it is rebuilt (its digest no longer matches); replace a file, never
 * rewrite it. Writes are atomic. An entry's modification time is the last build that used it;
 * entries no build used for a week are removed. Deleting the folder is always safe: the next
 * build makes everything again.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  copyFileSync,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { cacheSecret, cacheTag } from './cache-secret.ts';
import { rememberLink, sha256Checked, sha256Hex, sha256Regular } from './hash.ts';

/** Entries unused this long are removed. */
const KEEP_MS = 7 * 24 * 3600 * 1000;
/** Pruning (a stat of every entry) runs at most this often. */
const PRUNE_EVERY_MS = 24 * 3600 * 1000;
const PRUNED_MARK = '.pruned';
/** An entry used within this long is not marked used again. */
const TOUCH_EVERY_MS = 3600 * 1000;
const CONTENT_ENTRY = /^([0-9a-f]{64})\.([0-9a-f]{64})$/;
const DERIVED_ENTRY = /^([0-9a-f]{64})\.([0-9a-f]{64})\.([0-9a-f]{32})$/;
/** Bad entries named in one warning; the rest are counted. */
const NAMED = 3;

/**
 * Whether an output may share `file`'s bytes through a hard link: only when no one else can
 * rewrite them later (owned by this user, writable by no group or other); else it is copied.
 */
function linkable(file: string): boolean {
  const st = lstatSync(file, { throwIfNoEntry: false });
  const uid = process.getuid?.();
  return st !== undefined && (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
}

/** Hard-link `from` to `to`, or copy it where links are not possible (another file system, no link support). */
function linkOrCopy(from: string, to: string): void {
  try {
    if (!linkable(from)) return copyFileSync(from, to, constants.COPYFILE_EXCL);
    linkSync(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK') throw err;
    copyFileSync(from, to, constants.COPYFILE_EXCL);
  }
}

/** The bytes of `file` when it is a regular file (never through a link); undefined otherwise. */
function readRegular(file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    return fstatSync(fd).isFile() ? readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A sound entry: the file holding it, and the sha256 of its bytes. */
export interface CacheEntry {
  file: string;
  sha256: string;
}

export interface FileCacheOptions {
  /** `content`: keys are the sha256 of the bytes; `derived` (default): keys digest the inputs, entries are signed. */
  kind?: 'content' | 'derived';
  /** Warnings, one line each: bad entries found (named), a link where the folder should be. */
  log?: (line: string) => void;
}

/**
 * Per secret, the entries' files (paths) this process found signed with it: a name holds its key,
 * digest and tag, so a name checked once under a secret needs no HMAC when listed again (a
 * folder's secret is resolved once per process, src/lib/cache-secret.ts; another secret starts over).
 */
const signedNames = new WeakMap<Buffer, Set<string>>();

/** Why entries were refused: reason → the files. */
type Refusals = Map<string, string[]>;

/**
 * The file operations are synchronous on purpose, like the feed's writes (src/emit/feed):
 * entries are small files, mostly in the page cache, where a trip through the thread pool costs
 * more than the operation (placing 2,500 file pages took 1.5 s through it).
 */
export class FileCache {
  readonly #dir: string;
  readonly #kind: 'content' | 'derived';
  readonly #secret: Buffer | undefined;
  readonly #log: (line: string) => void;
  /** key → sha256 of the entry's bytes, as listed when the cache was opened or kept since. */
  readonly #entries: Map<string, string>;
  /** Each entry's file (`<key>.<sha256>`, and its tag), as made by `#file`. */
  readonly #files = new Map<string, string>();
  /** Whether the folder was made (once per build, not once per entry). */
  #madeDir = false;
  /** Entries used (and found sound), and found damaged or refused, in this build. */
  hits = 0;
  damaged = 0;

  private constructor(dir: string, opts: FileCacheOptions) {
    this.#dir = dir;
    this.#kind = opts.kind ?? 'derived';
    this.#secret = this.#kind === 'derived' ? cacheSecret(dir).secret : undefined;
    this.#log = opts.log ?? (() => {});
    this.#entries = new Map();
  }

  static open(dir: string, opts: FileCacheOptions = {}): FileCache {
    const cache = new FileCache(dir, opts);
    cache.#list();
    return cache;
  }

  /** Read the folder's entries, keeping the sound names and removing (and saying) the others. */
  #list(): void {
    const refused: Refusals = new Map();
    const refuse = (reason: string, name: string): void => {
      refused.set(reason, [...(refused.get(reason) ?? []), name]);
      rmSync(path.join(this.#dir, name), { force: true, recursive: true });
    };
    const st = lstatSync(this.#dir, { throwIfNoEntry: false });
    if (st && !st.isDirectory()) {
      // A link here would have every write land wherever it points.
      this.#log(
        `cache: ${this.#dir} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}; removed, not followed`,
      );
      rmSync(this.#dir, { force: true });
      return;
    }
    const names = st ? readdirSync(this.#dir, { withFileTypes: true }) : [];
    for (const e of names) {
      if (e.name === PRUNED_MARK || e.name.endsWith('.tmp')) continue;
      const reason = this.#refusal(e.name, e.isFile());
      if (reason) refuse(reason, e.name);
    }
    this.#report(refused);
  }

  /** Why the entry `name` is not used (undefined: it is listed). */
  #refusal(name: string, regular: boolean): string | undefined {
    const m = (this.#kind === 'content' ? CONTENT_ENTRY : DERIVED_ENTRY).exec(name);
    if (!regular) return 'not a regular file (a symbolic link or a folder)';
    if (!m) return this.#kind === 'derived' && CONTENT_ENTRY.test(name) ? 'not signed' : undefined;
    const [, key, sha256, tag] = m as unknown as [string, string, string, string | undefined];
    if (this.#kind === 'content' && key !== sha256)
      return 'named by a digest that is not its key (its bytes are not what the key names)';
    if (this.#kind === 'derived') {
      const file = path.join(this.#dir, name);
      const signed = signedNames.get(this.#secret!) ?? new Set<string>();
      if (!signed.has(file)) {
        if (tag !== cacheTag(this.#secret!, key, sha256))
          return 'signed with another key (made on another machine, or altered)';
        signedNames.set(this.#secret!, signed.add(file));
      }
    }
    this.#entries.set(key, sha256);
    return undefined;
  }

  #report(refused: Refusals): void {
    for (const [reason, names] of refused) {
      this.damaged += names.length;
      const named = names
        .slice(0, NAMED)
        .map((n) => path.join(this.#dir, n))
        .join(', ');
      const more = names.length > NAMED ? ` and ${names.length - NAMED} more` : '';
      this.#log(
        `cache: ${names.length} entr${names.length === 1 ? 'y' : 'ies'} ${reason}: ${named}${more}; removed, made again`,
      );
    }
  }

  /** The cache key of these inputs (strings, numbers, arrays and plain objects of them). */
  static key(...inputs: unknown[]): string {
    return sha256Hex(JSON.stringify(inputs));
  }

  #file(key: string, sha256: string): string {
    const entry = `${key}.${sha256}`;
    let file = this.#files.get(entry);
    if (file === undefined) {
      const name = this.#secret ? `${entry}.${cacheTag(this.#secret, key, sha256)}` : entry;
      this.#files.set(entry, (file = path.join(this.#dir, name)));
    }
    return file;
  }

  /**
   * The size of the bytes `found` (undefined: they could not be read, or not as a regular file)
   * when they match the entry's digest; a damaged entry is removed and said.
   */
  #sound(key: string, found: { sha256: string; bytes: number } | undefined): number | undefined {
    const sha256 = this.#entries.get(key)!;
    if (found?.sha256 === sha256) {
      this.hits++;
      return found.bytes;
    }
    const file = this.#file(key, sha256);
    this.#entries.delete(key);
    rmSync(file, { force: true });
    this.#report(
      new Map([['whose bytes do not match its digest (damaged, or not a regular file)', [path.basename(file)]]]),
    );
    return undefined;
  }

  /**
   * Mark an entry used now (its modification time; through a hard link, the output's too). Once an
   * hour is enough for pruning, which keeps a week: a process that builds again and again leaves
   * the entries' change times alone, so their checks are remembered (`sha256Regular`).
   */
  #touch(file: string): void {
    const now = new Date();
    try {
      const st = lstatSync(file);
      if (st.isFile() && now.getTime() - st.mtimeMs > TOUCH_EVERY_MS) utimesSync(file, now, now);
    } catch {
      /* removed meanwhile: used or not, it is gone */
    }
  }

  /** Whether an entry is recorded for `key` (unchecked: `place` and the others check it). */
  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /**
   * The sha256 recorded for the entry of `key` (its name checked when the cache was opened; the
   * caller checks the bytes it holds against it), marking the entry used; undefined when there is none.
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
    const bytes = readRegular(file);
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
    if (this.#sound(key, sha256Regular(file)) === undefined) return undefined;
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
    // What the process remembers of the entry's check, carried over the link (src/lib/hash.ts).
    const found = sha256Checked(file);
    const before = found?.sha256 === sha256 ? found.identity : undefined;
    try {
      linkOrCopy(file, dest);
    } catch {
      this.#entries.delete(key);
      return undefined;
    }
    // Checked at the destination: a link placed there (link(2) does not follow one) is refused.
    // The lstat that carries the check over the link is that check.
    const bytes = this.#sound(key, (before && rememberLink(before, dest)) ?? sha256Regular(dest));
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
    writeFileSync(tmp, data, { flag: 'wx' });
    renameSync(tmp, file);
    this.#entries.set(key, sha256);
    return { file, sha256 };
  }

  /** Keep the file `file` (just written, whose bytes have this sha256) under `key`: a hard link to it where possible. */
  adopt(key: string, file: string, sha256: string): void {
    if (this.#kind === 'content' && key !== sha256)
      throw new Error(`cache: content key ${key} is not the digest ${sha256}`);
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
    const last = lstatSync(mark, { throwIfNoEntry: false })?.mtimeMs;
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
      const st = lstatSync(file, { throwIfNoEntry: false });
      if (st && !st.isDirectory() && now - st.mtimeMs > KEEP_MS) {
        unlinkSync(file);
        removed++;
      }
    }
    // Never written through a link left in its place.
    rmSync(mark, { force: true });
    writeFileSync(mark, '', { flag: 'wx' });
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
