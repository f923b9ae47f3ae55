/** The feed emitter: `feed/v1/…`, `.well-known/agent-skills/…`, archives, change list. */
export { writeFeed, takeKeptFolders, type WriteFeedOptions, type FeedSummary } from './write-feed.ts';
export { loadPreviousFeed, computeChanges, type PreviousFeed } from './changes.ts';
export { tarGz, zip, type ArchiveEntry } from './archive.ts';
