/**
 * The feed reader: one digest-verified way to read a skillpress feed (v1) from a folder or a URL,
 * used by federation, install, the change list and the MCP server.
 *
 *   const reader = await openFeed('https://skills.example/');      // or 'dist', 'dist/feed/v1'
 *   const cards = await reader.cards();                             // cards.json, verified
 *   const { skill, files } = await reader.readSkill('pdf-tools');   // skill JSON + every file, verified
 *
 * Layers: a FeedStore gives verified bytes by feed path (DirStore for folders, RemoteStore for
 * URLs: guarded HTTP and a content-addressed cache); FeedReader parses and checks what they give.
 * See docs/design/federation.md.
 */
import { FeedReader, type FeedReaderOptions } from './reader.ts';
import { openFeedStore, type OpenOptions } from './open.ts';

export {
  FeedReader,
  type FeedReaderOptions,
  type IndexEntry,
  type VerifiedFile,
  type VerifiedSkill,
} from './reader.ts';
export { indexUrlOf, openFeedStore, type OpenOptions } from './open.ts';
export { DirStore, type DirStoreOptions, type FeedStore } from './store.ts';
export type { FeedText } from './read-text.ts';
export { RemoteStore, type RemoteStoreOptions } from './remote-store.ts';
export { Cache } from './cache.ts';
export { defaultCacheRoot } from './cache-root.ts';
export { resolveFeedPath } from './paths.ts';

/**
 * Open the feed at `location` (a build folder, a feed folder or a site URL) and read its index.
 * Every part it reads after that is checked against the digests the index lists. A
 * {@link NotFoundError} when no feed is there.
 *
 * @example
 * ```ts
 * import { openFeed } from 'skillpress';
 * const reader = await openFeed('https://skills.example/'); // or 'dist', 'dist/feed/v1'
 * const cards = await reader.cards();
 * const { skill, files } = await reader.readSkill(cards.skills[0]!.id);
 * console.log(skill.card.name, files.map((f) => f.file.path));
 * ```
 */
export async function openFeed(location: string, options: OpenOptions & FeedReaderOptions = {}): Promise<FeedReader> {
  return FeedReader.open(await openFeedStore(location, options), options);
}
