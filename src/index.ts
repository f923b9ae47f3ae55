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

// --- Meaning everywhere: the hybrid ranking, skill vectors in the feed, hybrid Elasticsearch search ---
/**
 * The shared hybrid ranking's formula and its pieces (used by `SkillSearch#searchPage` with
 * `{ meaning }`): `fusedScore(wordScore, bestWordScore, closeness)` = wordScore / best + 0.3 × closeness.
 * @example
 * const meaning = await catalog.meaningIndex(); // or SkillVectors.fromMatrix(embedder, search.ids, matrix)
 * search.searchPage('make our internal CLI repo public', { meaning, limit: 10 });
 */
export { fusedScore, strongCount, usesMeaning, WEAK_BELOW, type MeaningIndex } from './search/hybrid.ts';
/**
 * The feed's int8 skill vectors (`skill-vectors.bin`) and the model split for the site.
 * @example
 * const { dims, matrix } = decodeSkillVectors(await readFile('dist/feed/v1/skill-vectors.bin'));
 */
export {
  decodeSkillVectors,
  encodeSkillVectors,
  SKILL_VECTORS_FILE,
  TOKEN_SHARD_ROWS,
} from './semantic/feed-vectors.ts';
/**
 * Hybrid search (BM25 + kNN over `purpose_vector`) in Elasticsearch without an inference endpoint;
 * loaded on first call.
 * @example
 * const { hits, method } = await searchElasticsearch('the database lookups are sluggish', { size: 5 });
 */
export { searchElasticsearch } from './elasticsearch.ts';
export type { HybridHit, HybridSearchOptions } from './emit/elasticsearch/index.ts';
// --- end of meaning everywhere ---

// The model: zod schemas and the types inferred from them.
export * from './model/index.ts';

// Errors: every failure skillpress reports is one of these.
export * from './lib/errors.ts';
