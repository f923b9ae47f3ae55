/**
 * A feed published at a URL, mirrored into a disk cache so the server starts and works offline.
 *
 * Layout of the cache folder (one per feed URL):
 *   meta.json            the index URL, its ETag / Last-Modified, when it was last checked
 *   index.json           the last index fetched (the root of trust)
 *   objects/<sha256>     every other part, skill JSON and file, stored under its digest
 *
 * index.json is revalidated with a conditional request (If-None-Match / If-Modified-Since); every
 * other object is named by the sha256 the index gives for it, verified when fetched, and never
 * refetched. When the network is down the cached index and objects keep serving.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sha256Hex } from '../../lib/hash.ts';
import { atomicWrite } from '../../lib/fs.ts';
import { encodePath } from './paths.ts';
import { readVerifiedText } from './read-text.ts';
import { verify, type FeedStore, type FeedText } from './store.ts';

interface Meta {
  url: string;
  etag?: string;
  last_modified?: string;
  checked_at?: string;
}

export interface RemoteStoreOptions {
  /** Cache root; default `$XDG_CACHE_HOME/skillpress/feeds` or `~/.cache/skillpress/feeds`. */
  cacheDir?: string;
  timeoutMs?: number;
}

export function defaultCacheRoot(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'skillpress', 'feeds');
}

export class RemoteStore implements FeedStore {
  readonly location: string;
  readonly cacheDir: string;
  #indexUrl: URL;
  #timeoutMs: number;
  #index: Buffer | undefined;
  #meta: Meta;

  constructor(indexUrl: string, options: RemoteStoreOptions = {}) {
    this.#indexUrl = new URL(indexUrl);
    this.location = this.#indexUrl.href;
    const key = sha256Hex(this.#indexUrl.href).slice(0, 24);
    this.cacheDir = path.join(options.cacheDir ?? defaultCacheRoot(), key);
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#meta = { url: this.#indexUrl.href };
  }

  /**
   * Loads the cached index; with nothing cached, fetches it. A cached feed is revalidated by the
   * caller (`refresh`), so the server starts without waiting for the network.
   */
  async open(): Promise<void> {
    try {
      this.#meta = { ...JSON.parse(await readFile(path.join(this.cacheDir, 'meta.json'), 'utf8')), url: this.#indexUrl.href };
      this.#index = await readFile(path.join(this.cacheDir, 'index.json'));
      return;
    } catch {
      this.#index = undefined;
    }
    try {
      await this.refresh();
    } catch (err) {
      throw new Error(`cannot fetch ${this.location} and nothing is cached: ${(err as Error).message}`);
    }
  }

  async readIndex(): Promise<FeedText> {
    if (!this.#index) throw new Error('remote feed not opened');
    return { text: this.#index.toString('utf8'), sha256: sha256Hex(this.#index) };
  }

  /** Conditional GET of index.json; true when it changed. Throws when the network fails. */
  async refresh(): Promise<boolean> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.#index && this.#meta.etag) headers['if-none-match'] = this.#meta.etag;
    if (this.#index && this.#meta.last_modified) headers['if-modified-since'] = this.#meta.last_modified;
    const response = await fetch(this.#indexUrl, { headers, signal: AbortSignal.timeout(this.#timeoutMs) });
    this.#meta.checked_at = new Date().toISOString();
    if (response.status === 304 && this.#index) {
      await this.#writeMeta();
      return false;
    }
    if (!response.ok) throw new Error(`${this.location}: HTTP ${response.status}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    const changed = !this.#index || !bytes.equals(this.#index);
    this.#index = bytes;
    this.#meta.etag = response.headers.get('etag') ?? undefined;
    this.#meta.last_modified = response.headers.get('last-modified') ?? undefined;
    await atomicWrite(path.join(this.cacheDir, 'index.json'), bytes);
    await this.#writeMeta();
    return changed;
  }

  async readText(feedPath: string, sha256: string): Promise<string> {
    try {
      return await readVerifiedText(this.#object(feedPath, sha256), sha256, feedPath);
    } catch {
      // not cached (or a damaged copy): fetch it
    }
    return (await this.read(feedPath, sha256)).toString('utf8');
  }

  /** The cache file of a part: content-addressed by its digest. */
  #object(feedPath: string, sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`${feedPath}: the index gives no valid sha256`);
    return path.join(this.cacheDir, 'objects', sha256.slice(0, 2), sha256);
  }

  async read(feedPath: string, sha256: string): Promise<Buffer> {
    const object = this.#object(feedPath, sha256);
    try {
      return verify(await readFile(object), sha256, feedPath);
    } catch {
      // not cached (or a damaged copy): fetch it
    }
    const url = new URL(encodePath(feedPath), this.#indexUrl);
    const response = await fetch(url, { signal: AbortSignal.timeout(this.#timeoutMs) });
    if (!response.ok) throw new Error(`${url.href}: HTTP ${response.status}`);
    const bytes = verify(Buffer.from(await response.arrayBuffer()), sha256, url.href);
    await atomicWrite(object, bytes);
    return bytes;
  }

  async #writeMeta(): Promise<void> {
    await atomicWrite(path.join(this.cacheDir, 'meta.json'), JSON.stringify(this.#meta, null, 2) + '\n');
  }
}
