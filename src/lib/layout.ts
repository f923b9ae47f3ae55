/**
 * Where a build puts what it publishes, relative to its output folder: one definition for the
 * writer, the feed readers and the MCP server (dependency-free, so the server's start loads
 * nothing more for it).
 */
export const FEED_PATH = 'feed/v1';
/** The site's catalog when imported skills are shown but not re-exported: own and imported skills, feed layout. */
export const CATALOG_PATH = 'catalog/v1';
export const DISCOVERY_PATH = '.well-known/agent-skills';
/** The mark in a build's staging folder: which build made it. */
export const STAGING_MARK = '.skillpress-staging.json';
/**
 * The folder where skillpress keeps a skills folder's state (locks, staging, the version store, the
 * MCP server's build): beside the skills folder, or inside it at a project's top (src/author/history.ts).
 * The loader never looks for skills in it.
 */
export const STATE_DIR = '.skillpress';
