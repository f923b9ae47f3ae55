/**
 * `--feed` accepts a build folder (`dist`), a feed folder (`dist/feed/v1`), or an http(s) URL of
 * a published site or of its `feed/v1/index.json`; the feed reader (src/feed-reader/open.ts)
 * turns any of them into a FeedStore. A URL feed opens from its cache when it has one, so the
 * server starts offline; serve.ts revalidates it right after, and every request is bounded
 * (bytes, deadline, same-host redirects: src/lib/http.ts).
 */
import { openFeedStore, type OpenOptions } from '../../feed-reader/open.ts';
import type { FeedStore } from './store.ts';

export { FEED_SUBDIR, indexUrlOf } from '../../feed-reader/open.ts';

export type RemoteFeedOptions = Pick<OpenOptions, 'cacheDir' | 'timeoutMs' | 'maxBytes' | 'maxIndexBytes'>;

export async function openFeed(feed: string, options: RemoteFeedOptions = {}): Promise<FeedStore> {
  return openFeedStore(feed, { ...options, cacheFirst: true });
}
