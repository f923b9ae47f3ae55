/**
 * `skillpress/model`: the zod schemas every stage shares, with their inferred types: a skill
 * and its files, the catalog and its problems, the feed's parts, the configuration.
 */
// First: on a Node.js too old for skillpress, a clear error instead of a missing built-in.
import '../lib/node-version.ts';
export * from './skill.ts';
export * from './feed.ts';
export * from './config.ts';
export { configJsonSchema } from './config-schema.ts';
