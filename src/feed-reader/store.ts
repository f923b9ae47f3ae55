/**
 * Where a feed's bytes come from: a folder on disk (here), or a URL mirrored into a disk cache
 * (remote-store.ts). Readers (reader.ts, the MCP server's catalog) read feed paths (see
 * paths.ts) through this interface only, and every byte they get matches the digest asked for.
 */
import { readFileSync, statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { IntegrityError, InvalidInputError, NotFoundError } from '../lib/errors.ts';
import { realpathInside } from '../lib/fs.ts';
import { sha256Hex } from '../lib/hash.ts';
import { checkPath } from '../lib/paths.ts';
import { checkDigest, readTextFile, readVerifiedText, type FeedText } from './read-text.ts';
import { limitText, sizeText } from '../lib/size-text.ts';

export interface FeedStore {
  /** Where the feed is, for messages. */
  readonly location: string;
  /** `index.json`: the root of trust, every other part is checked against it. */
  readIndex(): Promise<FeedText>;
  /** The bytes of a feed path, which must hash to `sha256`; `size`, when listed, bounds the download. */
  read(feedPath: string, sha256: string, size?: number): Promise<Buffer>;
  /** Like `read`, as UTF-8 text; for the big parts (read in chunks, see read-text.ts). */
  readText(feedPath: string, sha256: string): Promise<string>;
  /** Asks the source whether index.json changed (a conditional request for URLs). */
  refresh(): Promise<boolean>;
}

export function verify(bytes: Buffer, sha256: string, what: string): Buffer {
  checkDigest(sha256Hex(bytes), sha256, what);
  return bytes;
}

export interface DirStoreOptions {
  /** Most bytes of one file (unset: no limit, for a feed of one's own). */
  maxBytes?: number;
  /** The folder's real path, when it is known only later (a feed folder a build is still making). */
  realRoot?: Promise<string>;
}

/** A feed folder (`dist/feed/v1`). Symlinks that leave the folder are refused. */
export class DirStore implements FeedStore {
  readonly location: string;
  #root: string;
  #realRoot: Promise<string>;
  #maxBytes: number | undefined;

  constructor(root: string, options: DirStoreOptions = {}) {
    this.#root = path.resolve(root);
    this.location = this.#root;
    this.#realRoot = options.realRoot ?? realpath(this.#root);
    this.#maxBytes = options.maxBytes;
  }

  async readIndex(): Promise<FeedText> {
    return readTextFile(this.#bounded(await this.#inside('index.json'), 'index.json'));
  }

  async read(feedPath: string, sha256: string, size?: number): Promise<Buffer> {
    const file = this.#bounded(await this.#inside(checkPath(feedPath)), feedPath, size);
    return verify(readFileSync(file), sha256, feedPath);
  }

  async readText(feedPath: string, sha256: string): Promise<string> {
    return readVerifiedText(this.#bounded(await this.#inside(checkPath(feedPath)), feedPath), sha256, feedPath);
  }

  async refresh(): Promise<boolean> {
    return false; // the watcher notices local changes
  }

  /**
   * `file`, refused when it is bigger than the limit or than the size the feed lists. (Skill JSON
   * and raw files are small: `read` reads them synchronously. An async readFile is several
   * thread-pool round trips, ~0.5 ms, ten times the read itself.)
   */
  #bounded(file: string, feedPath: string, size?: number): string {
    const max = this.#maxBytes ?? Infinity;
    if (size === undefined && max === Infinity) return file;
    const actual = statSync(file).size;
    if (actual > max)
      throw new InvalidInputError(`${feedPath}: ${sizeText(actual)}, over ${limitText(max)}`, { rule: 'too-large' });
    if (size !== undefined && actual !== size)
      throw new IntegrityError(`${feedPath}: ${actual} bytes, but the feed lists ${size}`, { rule: 'digest-mismatch' });
    return file;
  }

  /** The real path of a feed path, refused when a symlink leads it out of the feed. */
  async #inside(feedPath: string): Promise<string> {
    try {
      return realpathInside(await this.#realRoot, path.join(this.#root, ...feedPath.split('/')), feedPath, 'the feed');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR')
        throw new NotFoundError(`${feedPath}: no such file in the feed at ${this.#root}`, {
          rule: 'not-found',
          cause: err,
        });
      throw err;
    }
  }
}
