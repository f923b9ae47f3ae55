/** Feed paths and skill URIs: the feed reader's rules (src/feed-reader/paths.ts), under the names the server uses. */
export { FeedPathError, checkPath, encodePath, resolveFeedPath } from '../../feed-reader/paths.ts';
