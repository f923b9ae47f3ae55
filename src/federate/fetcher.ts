/**
 * HTTP plus the cache: conditional GETs for entry points (a peer's index.json, a SKILL.md
 * URL) and digest-addressed GETs for everything an entry point lists.
 */
import { Cache, type UrlEntry } from './cache.ts';
import { FetchError, get, type GetOptions } from './http.ts';
import { sha256Hex } from '../lib/hash.ts';

export interface FetcherOptions {
  timeoutMs: number;
  maxBytes: number;
  /** Most bytes this fetcher may download in total (cache hits are free). */
  totalBytes?: number;
  allowRedirect?: GetOptions['allowRedirect'];
}

export interface ConditionalResult {
  body: Buffer;
  /** true when the server answered 304 and the body came from the cache. */
  notModified: boolean;
  /** The URL that answered, after same-host redirects: relative URLs in the body resolve against it. */
  url: string;
  entry: UrlEntry;
}

export class DigestMismatch extends Error {}

export class Fetcher {
  /** Requests sent (for logs and the "unchanged peer costs one request" promise). */
  requests = 0;
  /** Bytes downloaded. */
  bytes = 0;
  private readonly cache: Cache;
  private readonly opts: FetcherOptions;
  constructor(cache: Cache, opts: FetcherOptions) {
    this.cache = cache;
    this.opts = opts;
  }

  private async get(url: string, headers?: Record<string, string>) {
    const total = this.opts.totalBytes ?? Infinity;
    const left = total - this.bytes;
    if (left <= 0) throw new FetchError('too-large', `${url}: not fetched, the ${total}-byte total for this source is used up (federation.max_peer_bytes)`);
    this.requests++;
    const perResponse = this.opts.maxBytes <= left;
    const res = await get(url, {
      ...this.opts,
      maxBytes: perResponse ? this.opts.maxBytes : left,
      limitName: perResponse ? 'federation.max_bytes' : 'left of federation.max_peer_bytes',
      headers,
    });
    this.bytes += res.body.byteLength;
    return res;
  }

  /** GET with If-None-Match / If-Modified-Since from the last answer; 304 → the cached body. */
  async conditional(url: string, now: Date): Promise<ConditionalResult> {
    const previous = await this.cache.lastAnswer(url);
    const headers: Record<string, string> = {};
    if (previous?.entry.etag) headers['if-none-match'] = previous.entry.etag;
    if (previous?.entry.last_modified) headers['if-modified-since'] = previous.entry.last_modified;
    const res = await this.get(url, headers);
    if (res.status === 304) {
      if (!previous) throw new FetchError('http-status', `${url}: answered 304 to a request that was not conditional`, 304);
      return { body: previous.body, notModified: true, entry: previous.entry, url: res.url };
    }
    const entry: UrlEntry = {
      url,
      etag: res.headers.get('etag') ?? undefined,
      last_modified: res.headers.get('last-modified') ?? undefined,
      sha256: await this.cache.putBlob(res.body),
      fetched_at: now.toISOString(),
    };
    await this.cache.putEntry(entry);
    return { body: res.body, notModified: false, entry, url: res.url };
  }

  /** The body whose sha256 is `sha256`: from the cache when present, else fetched and checked. */
  async verified(url: string, sha256: string): Promise<Buffer> {
    const cached = await this.cache.blob(sha256);
    if (cached) return cached;
    const res = await this.get(url);
    const actual = sha256Hex(res.body);
    if (actual !== sha256) throw new DigestMismatch(`${url}: sha256 is ${actual}, but the feed lists ${sha256}`);
    await this.cache.putBlob(res.body);
    return res.body;
  }
}
