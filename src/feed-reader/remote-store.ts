/**
 * A feed published at a URL, mirrored into the HTTP cache (cache.ts) so it opens and works
 * offline. index.json is revalidated with a conditional request; every other part, skill JSON
 * and file is named by the sha256 its parent lists, verified when fetched, and never fetched
 * again. Every request goes through the guarded client (src/lib/http.ts): byte caps, deadlines,
 * same-host redirects; a download whose size the feed lists is capped at that size.
 *
 * A new index.json must parse and match the feed schema before it replaces the cached one, so a
 * broken or hostile answer never displaces the last good feed: the cached one keeps serving.
 */
import { FeedIndex } from '../model/feed.ts';
import { MIB } from '../model/config.ts';
import { sha256Hex } from '../lib/hash.ts';
import { httpGet, type ByteBudget, type Deadline, type GetOptions } from '../lib/http.ts';
import { parseJson } from '../lib/json.ts';
import { IntegrityError, NetworkError, NotFoundError } from '../lib/errors.ts';
import { Cache, conditionalGet } from './cache.ts';
import { encodePath } from '../lib/paths.ts';
import { readVerifiedText } from './read-text.ts';
import type { FeedText } from './read-text.ts';
import { verify, type FeedStore } from './store.ts';

export interface RemoteStoreOptions {
  /**
   * Cache folder (content-addressed, revalidated with conditional requests). Default: none on disk;
   * the CLI passes `defaultCacheRoot(process.env, os.homedir())`.
   */
  cacheDir?: string;
  /** A cache shared with other stores (federation: one per build), or null for none (install); wins over `cacheDir`. */
  cache?: Cache | null;
  /** index.json already fetched from `url` (install finds it while looking for a feed): not fetched again. */
  index?: { body: Buffer; url: string };
  /** Deadline for one request, headers and body (default 10,000 ms). */
  timeoutMs?: number;
  /** Most bytes of one response (default 64 MiB). */
  maxBytes?: number;
  /** Most bytes of index.json, checked before it is parsed (default 16 MiB). */
  maxIndexBytes?: number;
  /** Names the byte limit in messages (`federation.max_bytes`). */
  limitName?: string;
  /** Bytes all of this store's downloads share. */
  budget?: ByteBudget;
  /** A deadline for all of this store's requests. */
  deadline?: Deadline;
  /** Time stamps of cache entries (tests pin it). */
  now?: Date;
}

export const DEFAULT_MAX_BYTES = 64 * MIB;
export const DEFAULT_MAX_INDEX_BYTES = 16 * MIB;

export class RemoteStore implements FeedStore {
  /** The index URL asked for. */
  readonly location: string;
  readonly cache: Cache | undefined;
  /** HTTP requests sent (an unchanged feed costs one). */
  requests = 0;
  /** The last revalidation answered 304 Not Modified. */
  notModified = false;
  #options: RemoteStoreOptions;
  #index: { body: Buffer; sha256: string } | undefined;
  /** Where index.json really is (after redirects): the feed's URLs resolve against it. */
  #base: URL;

  constructor(indexUrl: string, options: RemoteStoreOptions = {}) {
    this.location = new URL(indexUrl).href;
    this.#base = new URL(this.location);
    this.cache =
      options.cache === null
        ? undefined
        : (options.cache ?? (options.cacheDir === undefined ? undefined : new Cache(options.cacheDir)));
    this.#options = options;
    if (options.index) this.#use(options.index.body, sha256Hex(options.index.body), options.index.url);
  }

  /**
   * Opens from the cached index when there is one, without the network (the caller revalidates
   * with `refresh`); with nothing cached, fetches it.
   */
  async open(): Promise<void> {
    const cached = await this.cache?.lastAnswer(this.location);
    if (cached) return this.#use(cached.body, cached.entry.sha256, cached.entry.final_url ?? this.location);
    await this.refresh();
  }

  /** Conditional GET of index.json; true when it changed. Throws when it cannot be fetched or is broken. */
  async refresh(): Promise<boolean> {
    const maxBytes = this.#maxIndexBytes();
    const limitName =
      maxBytes < (this.#options.maxBytes ?? DEFAULT_MAX_BYTES) ? 'the index.json limit' : this.#options.limitName;
    const check = (body: Buffer, url: string): void => void parseJson(body, FeedIndex, url, { maxBytes });
    const http = this.#http({ maxBytes, limitName, accept: 'application/json' });
    this.requests++;
    let answer: { body: Buffer; sha256: string; url: string };
    if (this.cache) {
      const got = await conditionalGet(this.cache, this.location, http, this.#options.now ?? new Date(), check);
      this.notModified = got.notModified;
      answer = { body: got.body, sha256: got.entry.sha256, url: got.url };
    } else {
      const got = await httpGet(this.location, http);
      check(got.body, got.url);
      answer = { body: got.body, sha256: sha256Hex(got.body), url: got.url };
    }
    const changed = answer.sha256 !== this.#index?.sha256;
    this.#use(answer.body, answer.sha256, answer.url);
    return changed;
  }

  async readIndex(): Promise<FeedText> {
    if (!this.#index) throw new Error(`${this.location}: the feed was not opened`);
    return { text: this.#index.body.toString('utf8'), sha256: this.#index.sha256 };
  }

  async read(feedPath: string, sha256: string, size?: number): Promise<Buffer> {
    const cached = await this.cache?.blob(sha256);
    if (cached) return cached;
    const url = new URL(encodePath(feedPath), this.#base).href;
    this.requests++;
    const res = await httpGet(url, this.#http({ expectedBytes: size })).catch((err: unknown) => {
      // More bytes than the feed lists: the bytes are not the ones listed. A 404: listed but not there.
      if (err instanceof NetworkError && err.rule === 'longer-than-listed')
        throw new IntegrityError(err.message, { rule: 'digest-mismatch', cause: err });
      if (err instanceof NetworkError && err.status === 404)
        throw new NotFoundError(err.message, { rule: 'not-found', cause: err });
      throw err;
    });
    verify(res.body, sha256, url);
    await this.cache?.putBlob(res.body);
    return res.body;
  }

  async readText(feedPath: string, sha256: string): Promise<string> {
    const blob = this.cache?.blobPath(sha256);
    // Big parts are read from the cache in chunks (read-text.ts); a missing or damaged copy is fetched.
    if (blob) {
      const text = await readVerifiedText(blob, sha256, feedPath).catch(() => undefined);
      if (text !== undefined) return text;
    }
    return (await this.read(feedPath, sha256)).toString('utf8');
  }

  #use(body: Buffer, sha256: string, url: string): void {
    this.#index = { body, sha256 };
    this.#base = new URL(url);
  }

  #maxIndexBytes(): number {
    return Math.min(
      this.#options.maxIndexBytes ?? DEFAULT_MAX_INDEX_BYTES,
      this.#options.maxBytes ?? DEFAULT_MAX_BYTES,
    );
  }

  #http(overrides: Partial<GetOptions>): GetOptions {
    const o = this.#options;
    return {
      timeoutMs: o.timeoutMs ?? 10_000,
      maxBytes: o.maxBytes ?? DEFAULT_MAX_BYTES,
      limitName: o.limitName,
      budget: o.budget,
      deadline: o.deadline,
      ...overrides,
    };
  }
}
