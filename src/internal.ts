/**
 * `skillpress/internal`: what the stages share but a library user has no reason to call: the
 * pieces `build()` and the CLI are made of, the calibrated constants of the routing rule, the
 * feed reader's stores and the embedding model's class. Exported for tools built on skillpress
 * internals (and listed in etc/skillpress.api.md so a change is still seen), with no promise of
 * stability: anything here may change in any release.
 */

// Loading: the loader options the config sets, the spec's name check and fields, and the config's unit.
export { skillsLoadOptions, sourceDateEpoch } from './config/load.ts';
export { checkName } from './load/index.ts';
export { SPEC_FIELDS } from './model/skill.ts';
export { MIB } from './model/config.ts';

// Federation and duplicates: the two halves of `federate`, and the problems `build` reports for duplicates.
export { importPeer, importSkillUrl } from './federate/index.ts';
export { duplicateProblems } from './duplicates/index.ts';

// The feed: the change list `writeFeed` computes, the reader's class and its stores.
export { computeChanges } from './emit/feed/index.ts';
export { FeedReader, DirStore, defaultCacheRoot, type DirStoreOptions } from './feed-reader/index.ts';

// Search and routing: the index builder `writeFeed` runs, the rule's fitted parameters, the model's class.
export { buildSearchIndexes } from './search/index.ts';
export { RULE, MEANING_WEIGHT, thresholdFor } from './route/index.ts';
export { Embedder, type StaticVectors } from './semantic/embedder.ts';

// The command line's reading of the environment.
export { connectionFromEnv } from './emit/elasticsearch/connection.ts';

// Origin signatures: the registry's signing key, and checking a skill's signed statement
// (registry, id, content digest) against its origin's key, as federation does across hops.
export {
  Signer,
  loadSigner,
  signatureProblem,
  statementBytes,
  parsePublicKey,
  type OriginStatement,
  type KeyPlacement,
} from './lib/signing.ts';
export { checkOrigins, type OriginCheck } from './federate/origin.ts';

// Configuration lookup and names: the skills folder with its config as every command finds them,
// the GitHub Pages workflow `init` writes, and "did you mean" suggestions for names not found.
export { findSkillsAndConfig, type SkillsAndConfig } from './config/load.ts';
export { pagesWorkflow, WORKFLOW_PATH } from './init/workflow.ts';
export { nearNames, didYouMean } from './lib/near-names.ts';

// Usage: the recorders and event helpers `skillpress mcp --usage` is made of, and the ranking
// steps that use a skill's outcomes.
export {
  defaultUsageDir,
  FileRecorder,
  ElasticsearchRecorder,
  makeEvent,
  userHash,
  currentUser,
  usageSalt,
  parseEventLine,
  parseEventLines,
  readEventFile,
  UsageTally,
} from './usage/index.ts';
export { withOutcomes, combinedConfidence, breakTiesByUse } from './route/usage.ts';

// Authoring: the pieces the write tools are made of (the duplicate check, versions as the store
// keeps them, the version counter, the change list).
export {
  listVersions,
  skillFolder,
  DuplicateIndex,
  MEANING_THRESHOLD,
  MEANING_TEXT_FLOOR,
  describeChanges,
  nextVersion,
} from './author/index.ts';

// Requirements: the `requires` keys read, one server's tool listing, and marking skills enabled.
export { REQUIRES_KEYS } from './load/requirements.ts';
export { listServerTools, type ServerTools } from './tools-check/index.ts';
export { markEnabled } from './enable/index.ts';

// Meaning: the hybrid ranking's formula and its pieces, and the feed's skill vectors (sign bits).
export { fusedScore, strongCount, usesMeaning, WEAK_BELOW } from './search/hybrid.ts';
export {
  decodeSkillVectors,
  encodeSkillVectors,
  signBytes,
  type SignVectors,
  SKILL_VECTORS_FILE,
  TOKEN_SHARD_ROWS,
} from './semantic/feed-vectors.ts';
export { LoadMemo } from './load/load-memo.ts';
