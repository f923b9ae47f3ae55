/**
 * `skillpress/mcp`: the MCP server over a built feed, as a library. `serve` is what
 * `skillpress mcp` runs (stdio, both protocol eras, reloads); `createServer` gives one server to
 * connect to a transport of your own, over a `FeedCatalog` loaded from `openFeedStore(dir or URL)`.
 */
// First: on a Node.js too old for skillpress, a clear error instead of a missing built-in.
import '../lib/node-version.ts';
export { createServer, INSTRUCTIONS, type ServerOptions } from './server.ts';
export { serve, type ServeOptions } from './serve.ts';
export { FeedCatalog, type CatalogCard } from './catalog.ts';
export type { CatalogRef } from './tools/index.ts';
export {
  openFeedStore,
  indexUrlOf,
  type FeedStore,
  type FeedText,
  type OpenOptions,
  type RemoteStoreOptions,
} from '../feed-reader/index.ts';
