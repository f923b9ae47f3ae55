/**
 * The federation cache: everything lives under one folder, nothing is ever written elsewhere.
 *
 *   blobs/<sha256>          verified bodies, addressed by their own digest
 *   http/<sha256 of url>.json  validators of the last answer for a URL (ETag, Last-Modified),
 *                           the digest of its body, and when it was fetched
 *
 * Content addressing is what makes an unchanged peer cost one request: every part, skill JSON
 * and file is named by the digest its parent lists, so once the index answers 304 the rest is
 * read from here, re-verified, without asking the peer again.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256Hex } from '../lib/hash.ts';
import { atomicWrite } from '../lib/fs.ts';

export interface UrlEntry {
  url: string;
  etag?: string;
  last_modified?: string;
  sha256: string;
  fetched_at: string;
}

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

  /** A cached body whose bytes still hash to `sha256`, or undefined. */
  async blob(sha256: string): Promise<Buffer | undefined> {
    if (!/^[0-9a-f]{64}$/.test(sha256)) return undefined;
    const bytes = await readFile(path.join(this.dir, 'blobs', sha256)).catch(() => undefined);
    return bytes && sha256Hex(bytes) === sha256 ? bytes : undefined;
  }

  async putBlob(bytes: Uint8Array): Promise<string> {
    const sha256 = sha256Hex(bytes);
    await this.write(path.join(this.dir, 'blobs', sha256), bytes);
    return sha256;
  }

  async entry(url: string): Promise<UrlEntry | undefined> {
    const raw = await readFile(this.entryPath(url), 'utf8').catch(() => undefined);
    if (raw === undefined) return undefined;
    try {
      const entry = JSON.parse(raw) as UrlEntry;
      return entry.url === url ? entry : undefined;
    } catch {
      return undefined;
    }
  }

  /** The last answer for `url` with its body, when both are still in the cache. */
  async lastAnswer(url: string): Promise<{ entry: UrlEntry; body: Buffer } | undefined> {
    const entry = await this.entry(url);
    const body = entry ? await this.blob(entry.sha256) : undefined;
    return entry && body ? { entry, body } : undefined;
  }

  async putEntry(entry: UrlEntry): Promise<void> {
    await this.write(this.entryPath(entry.url), JSON.stringify(entry, null, 2) + '\n');
  }

  private entryPath(url: string): string {
    return path.join(this.dir, 'http', `${sha256Hex(url)}.json`);
  }
}
