/**
 * A URL feed read from the HTTP cache alone (cache.ts), for when its server cannot be reached:
 * the last index.json that was verified there, and the parts and files it lists that are still
 * cached. Nothing is requested, so a server that is down or hanging costs no more time.
 */
import { NetworkError } from '../lib/errors.ts';
import { confirmedAt, type Cache, type CachedAnswer } from './cache.ts';
import type { FeedText } from './read-text.ts';
import type { FeedStore } from './store.ts';

/** The newest index.json the cache holds for any of `indexUrls` (the places a feed URL may have answered). */
export async function lastCachedIndex(cache: Cache, indexUrls: readonly string[]): Promise<CachedAnswer | undefined> {
  const answers = await Promise.all(indexUrls.map((url) => cache.lastAnswer(url)));
  return answers
    .filter((a): a is CachedAnswer => a !== undefined)
    .reduce<CachedAnswer | undefined>(
      (newest, a) => (newest && confirmedAt(newest.entry) >= confirmedAt(a.entry) ? newest : a),
      undefined,
    );
}

export class CachedStore implements FeedStore {
  /** The index URL the cached copy was fetched from (as a RemoteStore's `location`). */
  readonly location: string;
  /** When the peer last served (or confirmed with a 304) the cached index.json, checked against the feed schema. */
  readonly confirmedAt: string;
  #index: CachedAnswer;
  #cache: Cache;

  constructor(index: CachedAnswer, cache: Cache) {
    this.location = index.entry.url;
    this.confirmedAt = confirmedAt(index.entry);
    this.#index = index;
    this.#cache = cache;
  }

  async readIndex(): Promise<FeedText> {
    return { text: this.#index.body.toString('utf8'), sha256: this.#index.entry.sha256 };
  }

  /** The cached bytes with this digest (`cache.blob` re-hashes them); what is not cached cannot be fetched now. */
  async read(feedPath: string, sha256: string): Promise<Buffer> {
    const bytes = await this.#cache.blob(sha256);
    if (bytes) return bytes;
    throw new NetworkError(`${feedPath}: not in the cache, and ${this.location} could not be reached`, undefined, {
      rule: 'network',
    });
  }

  async readText(feedPath: string, sha256: string): Promise<string> {
    return (await this.read(feedPath, sha256)).toString('utf8');
  }

  async refresh(): Promise<boolean> {
    return false;
  }
}
