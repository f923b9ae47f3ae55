/**
 * skillpress as a library: `import { build } from 'skillpress'`. Every stage the command line
 * runs is a call here; the CLI only reads its flags, the environment and the working directory,
 * passes them in as options, and prints. Subpaths load less: `skillpress/search` (the search
 * index alone), `skillpress/model` (the zod schemas and their types), `skillpress/mcp` (the MCP
 * server), `skillpress/elasticsearch` (the whole Elasticsearch emitter). What the stages share
 * but a user has no reason to call is in `skillpress/internal`, with no promise of stability.
 *
 * Every name is listed on purpose: etc/skillpress.api.md is the report of this surface (and of
 * every subpath), `npm run api` regenerates it, and test/api/report.test.ts fails when it differs.
 *
 * Astro and the Elasticsearch client load on first use, so importing this module loads neither.
 */

// The whole pipeline: skills/ (+ peers) → feed, discovery index, archives, site, Elasticsearch.
// First: on a Node.js too old for skillpress, a clear error instead of a missing built-in.
import './lib/node-version.ts';
export {
  build,
  BuildSession,
  type BuildOptions,
  type BuildResult,
  type BuildElasticsearch,
  type BuildStages,
  type BuildReuse,
} from './build.ts';
export { loadConfig } from './config/load.ts';

// Load and validate.
export { loadCatalog, type LoadOptions } from './load/index.ts';
export {
  parseSkillMarkdown,
  validateFrontMatter,
  type ParsedSkillMarkdown,
  type FrontMatterResult,
  type ValidationMode,
} from './load/index.ts';
export type { ValidateOptions, ValidatedFrontMatter, FieldProblem } from './load/validate.ts';
export { VALIDATION_RULES, type ValidationRule } from './load/rules.ts';

// Federation and duplicates.
export { federate, type FederateOptions } from './federate/index.ts';
export { findDuplicates, type Duplicate } from './duplicates/index.ts';

// The feed: writing, and reading it back (a folder or a published URL).
export { writeFeed, takeKeptFolders, type WriteFeedOptions, type FeedSummary } from './emit/feed/index.ts';
export { FEED_PATH, CATALOG_PATH, DISCOVERY_PATH } from './lib/layout.ts';
export { loadPreviousFeed, type PreviousFeed } from './emit/feed/index.ts';
export {
  openFeed,
  openFeedStore,
  type FeedReader,
  type FeedReaderOptions,
  type FeedStore,
  type OpenOptions,
  type VerifiedSkill,
  type VerifiedFile,
} from './feed-reader/index.ts';
export { FeedCatalog, type CatalogCard, type CatalogRef } from './mcp/index.ts';

// The site (Astro loads when a site is built).
export { buildSite, type BuildSiteOptions, type SiteResult } from './site/build-site.ts';

// Search: one index and one ranking for the site and the MCP server.
export {
  SkillSearch,
  type SearchDoc,
  type SearchEntry,
  type SearchHit,
  type SearchMode,
  type SearchOptions,
  type SearchPage,
  type SerializedIndex,
  type QueryWord,
  type WordMatch,
} from './search/index.ts';

// Routing a request to one skill or none, and the MCP server.
export {
  retrieve,
  ruleJudge,
  type Candidate,
  type Judgement,
  type RequestWord,
  type Retrieval,
  type RetrieveOptions,
} from './route/index.ts';
export { loadEmbedder } from './semantic/load.ts';
export type { Embedder } from './semantic/embedder.ts';
export { SkillVectors, type DescribedSkill } from './semantic/skill-vectors.ts';
export { createServer, serve, type ServerOptions, type ServeOptions } from './mcp/index.ts';

// Install one skill into an agent's skills folder.
export {
  install,
  AGENTS,
  skillsFolder,
  type InstallOptions,
  type InstallResult,
  type AgentLocation,
  type SkillsFolderOptions,
  type Environment,
} from './install/index.ts';

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
  RestoreResult,
  ConnectionOptions,
  IndexNames,
  IndexCheck,
} from './emit/elasticsearch/index.ts';

// Hybrid search in Elasticsearch (BM25 and kNN over `purpose_vector`, no inference endpoint
// needed), loaded on first call; the ranking's meaning index, as `SkillSearch#searchPage` takes it.
export { searchElasticsearch } from './elasticsearch.ts';
export type { HybridHit, HybridSearchOptions } from './emit/elasticsearch/index.ts';
export type { MeaningIndex } from './search/hybrid.ts';

// The model: zod schemas and the types inferred from them (also `skillpress/model`).
export {
  SKILL_NAME_PATTERN,
  SKILL_NAME_MAX,
  DESCRIPTION_MAX,
  COMPATIBILITY_MAX,
  Visibility,
  FrontMatter,
  RegistryFields,
  Encoding,
  SkillFile,
  HealthStatus,
  SkillSource,
  Health,
  Skill,
  Severity,
  Problem,
  Catalog,
  FEED_VERSION,
  Card,
  FeedFile,
  ScopedTool,
  ScopedResource,
  FeedSkill,
  Cards,
  FeedPart,
  FeedIndex,
  Change,
  Changes,
  DiscoverySkill,
  DISCOVERY_SCHEMA_URL,
  DiscoveryIndex,
  PUBLISHED_SCHEMAS,
  PeerConfig,
  SkillsConfig,
  FederationConfig,
  DuplicatesConfig,
  SkillpressConfig,
  configJsonSchema,
} from './model/index.ts';

// Errors: every failure skillpress reports is one of these.
export {
  SkillpressError,
  UsageError,
  InvalidInputError,
  NotFoundError,
  IntegrityError,
  UnsafePathError,
  NetworkError,
  type ErrorCode,
  type ErrorDetails,
} from './lib/errors.ts';

// Getting started and configuration: `init` sets up a skills repository; `findConfig` is how
// every command finds skillpress.json (from the skills folder up to the repository root).
export { init, type InitOptions, type InitResult } from './init/index.ts';
export { findConfig, CONFIG_FILE, type FoundConfig, type FindConfigOptions } from './config/load.ts';

// Usage, ratings and success rates (opt-in; docs/usage.md): record what agents load and how it
// went, and sum it up per skill for the build to publish and rank by.
export {
  openRecorder,
  summarizeUsage,
  DEFAULT_MIN_REPORTS,
  type UsageRecorder,
  type UsageSummary,
  type SkillUsage,
  type UpdateCandidate,
  type SummarizeOptions,
  type SkippedLine,
} from './usage/index.ts';
export { UsageEvent, UsageFigures, Outcome, USAGE_VERSION, MAX_NOTE } from './model/usage.ts';
export type { UsageOptions } from './mcp/usage.ts';

// Authoring: agents and people write skills back, every version kept (docs/authoring.md). Each
// write is checked with the loader's rules, the path rule and the duplicate check, written whole,
// and kept as one git commit (a git work tree) or in the version store beside the folder.
export {
  scaffoldSkill,
  createSkill,
  updateSkill,
  rollbackSkill,
  skillVersions,
  VersionConflictError,
  TEMPLATES,
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

// Requirements, tool checks, enabled and disabled skills, bundles (docs/requirements.md): what a
// skill needs, checked against real MCP servers; bundles installed as one.
export { readSkillNeeds } from './load/requirements.ts';
export {
  NEEDS_VERSION,
  ToolReference,
  CompatibilityRequirement,
  ToolStatus,
  ToolsStatus,
  SkillNeeds,
} from './model/requirements.ts';
export { checkTools, type ToolsCheckReport, type ServerReport } from './tools-check/index.ts';
export { setSkillEnabled, type SetEnabledResult } from './enable/index.ts';
export { installBundle } from './install/index.ts';
