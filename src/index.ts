/**
 * skillpress as a library: `import { build } from 'skillpress'`. Every stage the command line
 * runs is a call here; the CLI only parses arguments and prints. Subpaths load less:
 * `skillpress/search` (the search index alone), `skillpress/model` (the zod schemas and their
 * types), `skillpress/mcp` (the MCP server), `skillpress/elasticsearch` (the whole
 * Elasticsearch emitter).
 *
 * Astro and the Elasticsearch client load on first use, so importing this module loads neither.
 */

// The whole pipeline: skills/ (+ peers) → feed, discovery index, archives, site, Elasticsearch.
export { build, type BuildOptions, type BuildResult } from './build.ts';
export { loadConfig, skillsLoadOptions } from './config/load.ts';

// Load and validate.
export { loadCatalog, type LoadOptions } from './load/index.ts';
export { parseSkillMarkdown, validateFrontMatter, checkName, type ValidationMode } from './load/index.ts';
export { VALIDATION_RULES, type ValidationRule } from './load/rules.ts';

// Federation and duplicates.
export { federate, importPeer, importSkillUrl, type FederateOptions } from './federate/index.ts';
export { findDuplicates, duplicateProblems, type Duplicate } from './duplicates/index.ts';

// The feed: writing, and reading it back (a folder or a published URL).
export { writeFeed, type WriteFeedOptions, type FeedSummary } from './emit/feed/index.ts';
export { FEED_PATH, CATALOG_PATH, DISCOVERY_PATH } from './lib/layout.ts';
export { loadPreviousFeed, computeChanges, type PreviousFeed } from './emit/feed/index.ts';
export {
  openFeed,
  openFeedStore,
  FeedReader,
  DirStore,
  type FeedStore,
  type OpenOptions,
} from './feed-reader/index.ts';
export { FeedCatalog } from './mcp/index.ts';

// The site (Astro loads when a site is built).
export { buildSite, type BuildSiteOptions } from './site/build-site.ts';

// Search: one index and one ranking for the site and the MCP server.
export {
  SkillSearch,
  buildSearchIndexes,
  type SearchEntry,
  type SearchHit,
  type SearchMode,
  type SearchOptions,
  type SearchPage,
  type SerializedIndex,
} from './search/index.ts';

// Routing a request to one skill or none, and the MCP server.
export {
  retrieve,
  ruleJudge,
  RULE,
  MEANING_WEIGHT,
  type Candidate,
  type Judgement,
  type Retrieval,
  type RetrieveOptions,
} from './route/index.ts';
export { loadEmbedder } from './semantic/load.ts';
export { Embedder, type StaticVectors } from './semantic/embedder.ts';
export { SkillVectors, type DescribedSkill } from './semantic/skill-vectors.ts';
export { createServer, serve, type ServerOptions, type ServeOptions } from './mcp/index.ts';

// Install one skill into an agent's skills folder.
export { install, AGENTS, skillsFolder, type InstallOptions, type InstallResult } from './install/index.ts';

// Elasticsearch: ingest and read-back, loaded on first call.
export {
  ingestCatalog,
  getSkillById,
  getSkillFiles,
  validateIndex,
  writeSkillFolder,
  elasticsearchClient,
} from './elasticsearch.ts';
export type {
  IngestOptions,
  IngestResult,
  SkillRecord,
  ReadOptions,
  ConnectionOptions,
  IndexNames,
  IndexCheck,
} from './emit/elasticsearch/index.ts';

// The model: zod schemas and the types inferred from them.
export * from './model/index.ts';

// Errors: every failure skillpress reports is one of these.
export * from './lib/errors.ts';

// ---------------------------------------------------------------------------------------------
// Authoring: agents and people write skills back, every version kept (docs/authoring.md).
//
//   import { createSkill, updateSkill, skillVersions, rollbackSkill, scaffoldSkill } from 'skillpress';
//   await scaffoldSkill({ skills: 'skills', name: 'reset-password', template: 'playbook' });
//   const made = await createSkill({ skills: 'skills', description: 'Refund a double charge.', body: '# Refund…' });
//   const { version, changes } = await updateSkill({ skills: 'skills', name: made.name, body: '…', base_version: '1' });
//   await rollbackSkill({ skills: 'skills', name: made.name, version: '1' }); // restored as a new version
//   const history = await skillVersions('skills', made.name); // newest first: version, date, digest, changes
//
// createSkill: a new skill folder, checked with the loader's rules, the path rule and the
// duplicate check (created: false with the existing skill's name), written whole, version 1.
// updateSkill: applies a change, raises metadata.version (integer + 1, or semver patch + 1),
// answers the changes; base_version makes a concurrent update a VersionConflictError.
// Each write is one git commit when the skills folder is in a git work tree, else a copy in
// the version store beside it (`.skillpress/versions/`).
export {
  scaffoldSkill,
  createSkill,
  updateSkill,
  rollbackSkill,
  skillVersions,
  listVersions,
  skillFolder,
  DuplicateIndex,
  VersionConflictError,
  MEANING_THRESHOLD,
  MEANING_TEXT_FLOOR,
  TEMPLATES,
  describeChanges,
  nextVersion,
  type ScaffoldOptions,
  type Template,
  type AuthorContext,
  type AuthoredFile,
  type CreateSkillInput,
  type CreateSkillResult,
  type UpdateSkillInput,
  type UpdateSkillResult,
  type SkillVersion,
  type DuplicateMatch,
} from './author/index.ts';
