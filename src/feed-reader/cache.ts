/**
 * The HTTP cache of remote feeds (federation, `skillpress mcp --feed <url>`) and of SKILL.md
 * URLs. Everything lives under one folder, nothing is ever written elsewhere:
 *
 *   blobs/<2 hex>/<sha256>     verified bodies, addressed by their own digest
 *   http/<sha256 of url>.json  the last answer for a URL: its validators (ETag, Last-Modified),
 *                              the URL that answered (after redirects), the digest of its body
 *
 * Content addressing is what makes an unchanged feed cost one request: every part, skill JSON
 * and file is named by the digest its parent lists, so once index.json answers 304 the rest is
 * read from here, re-verified, without asking again. Deleting the folder is always safe.
 *
 * Whoever can write to the folder must not be able to stand in for a peer: a blob is used only
 * when its bytes hash to its name (read as a regular file, never through a link), and a URL's
 * entry only when it carries the HMAC of its fields under the machine's cache secret
 * (src/lib/cache-secret.ts, kept outside the folder); an entry without one is asked for again.
 */
import { constants } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { sha256Hex } from '../lib/hash.ts';
import { atomicWrite } from '../lib/fs.ts';
import { cacheSecret, cacheTag } from '../lib/cache-secret.ts';
import { httpGet, type GetOptions, type HttpResponse } from '../lib/http.ts';

/** When the server last confirmed the cached body: a 304, else the download. */
export const confirmedAt = (entry: UrlEntry): string => entry.checked_at ?? entry.fetched_at;

export interface UrlEntry {
  url: string;
  /** The URL that answered, after redirects (relative URLs in the body resolve against it). */
  final_url?: string;
  etag?: string;
  last_modified?: string;
  sha256: string;
  fetched_at: string;
  /** The last time the server answered 304 for this body: it was still the one it publishes then. */
  checked_at?: string;
  /** HMAC of the fields above under the machine's cache secret. */
  tag?: string;
}

/** The bytes of `file` when it is a regular file (never through a link); undefined otherwise. */
async function readRegular(file: string): Promise<Buffer | undefined> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
  if (!handle) return undefined;
  try {
    return (await handle.stat()).isFile() ? await handle.readFile() : undefined;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

const SHA256 = /^[0-9a-f]{64}$/;

export class Cache {
  readonly dir: string;
  /** Folders created by this instance, so each is made once rather than per write. */
  private readonly folders = new Map<string, Promise<unknown>>();
  constructor(dir: string) {
    this.dir = path.resolve(dir);
  }

  private async write(file: string, data: Uint8Array | string): Promise<void> {
    const folder = path.dirname(file);
    let made = this.folders.get(folder);
    if (!made) this.folders.set(folder, (made = mkdir(folder, { recursive: true })));
    await made;
    await atomicWrite(file, data, false);
  }

  /** Where the body with this digest is kept (it may not be there yet). */
  blobPath(sha256: string): string | undefined {
    return SHA256.test(sha256) ? path.join(this.dir, 'blobs', sha256.slice(0, 2), sha256) : undefined;
  }

  /** A cached body whose bytes still hash to `sha256`, or undefined. */
  async blob(sha256: string): Promise<Buffer | undefined> {
    const file = this.blobPath(sha256);
    const bytes = file ? await readRegular(file) : undefined;
    return bytes && sha256Hex(bytes) === sha256 ? bytes : undefined;
  }

  async putBlob(bytes: Uint8Array): Promise<string> {
    const sha256 = sha256Hex(bytes);
    await this.write(this.blobPath(sha256)!, bytes);
    return sha256;
  }

  async entry(url: string): Promise<UrlEntry | undefined> {
    const raw = await readRegular(this.entryPath(url));
    if (raw === undefined) return undefined;
    try {
      const entry = JSON.parse(raw.toString('utf8')) as UrlEntry;
      return entry.url === url && entry.tag === this.tag(entry) ? entry : undefined;
    } catch {
      return undefined;
    }
  }

  /** The entry's HMAC: over every field but the tag itself. */
  private tag(entry: UrlEntry): string {
    const fields: Partial<UrlEntry> = { ...entry };
    delete fields.tag;
    return cacheTag(cacheSecret(this.dir).secret, 'url-entry', JSON.stringify(fields));
  }

  /** The last answer for `url` with its body, when both are still in the cache. */
  async lastAnswer(url: string): Promise<CachedAnswer | undefined> {
    const entry = await this.entry(url);
    const body = entry ? await this.blob(entry.sha256) : undefined;
    return entry && body ? { entry, body } : undefined;
  }

  async putEntry(entry: UrlEntry): Promise<void> {
    const signed = { ...entry, tag: this.tag(entry) };
    await this.write(this.entryPath(entry.url), JSON.stringify(signed, null, 2) + '\n');
  }

  private entryPath(url: string): string {
    return path.join(this.dir, 'http', `${sha256Hex(url)}.json`);
  }
}

export interface CachedAnswer {
  entry: UrlEntry;
  body: Buffer;
}

export interface ConditionalAnswer extends CachedAnswer {
  /** The server answered 304 and the body came from the cache. */
  notModified: boolean;
  /** The URL that answered, after redirects. */
  url: string;
}

/**
 * GET `url` with the validators of its last cached answer; a 304 gives the cached body. A new
 * body is handed to `accept` (which throws to refuse it) before it replaces the cached one, so
 * a broken answer never displaces the last good one.
 */
export async function conditionalGet(
  cache: Cache,
  url: string,
  opts: GetOptions,
  now: Date,
  accept: (body: Buffer, url: string) => void = () => {},
): Promise<ConditionalAnswer> {
  const previous = await cache.lastAnswer(url);
  const validators = previous ? { etag: previous.entry.etag, lastModified: previous.entry.last_modified } : undefined;
  const res: HttpResponse = await httpGet(url, { ...opts, validators });
  if (res.status === 304 && previous) {
    const { tag: _, ...fields } = previous.entry;
    const entry: UrlEntry = { ...fields, checked_at: now.toISOString() };
    await cache.putEntry(entry);
    return { entry, body: previous.body, notModified: true, url: res.url };
  }
  accept(res.body, res.url);
  const entry: UrlEntry = {
    url,
    ...(res.url !== url ? { final_url: res.url } : {}),
    etag: res.validators.etag,
    last_modified: res.validators.lastModified,
    sha256: await cache.putBlob(res.body),
    fetched_at: now.toISOString(),
  };
  await cache.putEntry(entry);
  return { entry, body: res.body, notModified: false, url: res.url };
}
