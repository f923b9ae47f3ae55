/**
 * Where a feed's bytes come from: a folder on disk, or a URL mirrored into a disk cache
 * (remote-store.ts). The catalog reads feed paths (see paths.ts) through this interface only.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { sha256Hex } from '../../lib/hash.ts';
import { checkPath } from './paths.ts';
import { readTextFile, readVerifiedText } from './read-text.ts';

export interface FeedStore {
  /** Where the feed is, for messages. */
  readonly location: string;
  /** `index.json`: the root of trust, every other part is checked against it. */
  readIndex(): Promise<FeedText>;
  /** The bytes of a feed path, which must hash to `sha256`. */
  read(feedPath: string, sha256: string): Promise<Buffer>;
  /** Like `read`, as UTF-8 text; for the big parts (read in chunks, see read-text.ts). */
  readText(feedPath: string, sha256: string): Promise<string>;
  /** Asks the source whether index.json changed (a conditional request for URLs). */
  refresh(): Promise<boolean>;
}

/** A feed file's text and the sha256 of its bytes. */
export interface FeedText {
  text: string;
  sha256: string;
}

/** The bytes of a part do not match the digest the index gives (a rebuild in progress, or tampering). */
export class FeedIntegrityError extends Error {}

export function verify(bytes: Buffer, sha256: string, what: string): Buffer {
  checkDigest(sha256Hex(bytes), sha256, what);
  return bytes;
}

/** Throws a FeedIntegrityError naming `what` unless `actual` is the digest the index gives. */
export function checkDigest(actual: string, sha256: string, what: string): void {
  if (actual !== sha256) throw new FeedIntegrityError(`${what}: sha256 ${actual} does not match the feed index (${sha256})`);
}

/** A feed folder (`dist/feed/v1`). Symlinks that leave the folder are refused. */
export class DirStore implements FeedStore {
  readonly location: string;
  #root: string;
  #realRoot: Promise<string>;

  constructor(root: string) {
    this.#root = path.resolve(root);
    this.location = this.#root;
    this.#realRoot = realpath(this.#root);
  }

  async readIndex(): Promise<FeedText> {
    return readTextFile(await this.#inside('index.json'));
  }

  async read(feedPath: string, sha256: string): Promise<Buffer> {
    return verify(await this.#readInside(checkPath(feedPath)), sha256, feedPath);
  }

  async readText(feedPath: string, sha256: string): Promise<string> {
    return readVerifiedText(await this.#inside(checkPath(feedPath)), sha256, feedPath);
  }

  async refresh(): Promise<boolean> {
    return false; // the watcher notices local changes
  }

  // Skill JSON and raw files are small (kilobytes): read synchronously. An async readFile is
  // several thread-pool round trips (open, stat, read, close), ~0.5 ms, ten times the read itself.
  async #readInside(feedPath: string): Promise<Buffer> {
    return readFileSync(await this.#inside(feedPath));
  }

  /** The real path of a feed path, refused when a symlink leads it out of the feed. */
  async #inside(feedPath: string): Promise<string> {
    const root = await this.#realRoot;
    const real = realpathSync(path.join(this.#root, ...feedPath.split('/')));
    if (!real.startsWith(root + path.sep)) throw new Error(`${feedPath} resolves outside the feed`);
    return real;
  }
}
