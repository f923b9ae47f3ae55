/** Where the server's feed bytes come from: the feed reader's stores (src/feed-reader/). */
export { DirStore, type FeedStore, type FeedText } from '../../feed-reader/store.ts';
