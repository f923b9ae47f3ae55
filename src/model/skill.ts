/**
 * The one typed model that flows through skillpress: loaders produce it, every emitter
 * (Elasticsearch, feeds, site, MCP) consumes it. Types are inferred from these zod schemas,
 * and the published JSON Schemas are generated from them, so this file is the contract.
 */
import { z } from 'zod';
import { UsageFigures } from './usage.ts';
import { ToolsStatus } from './requirements.ts';

/** Agent Skills specification: 1–64 chars, lowercase ASCII letters, digits, single hyphens inside. */
export const SKILL_NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SKILL_NAME_MAX = 64;
export const DESCRIPTION_MAX = 1024;
export const COMPATIBILITY_MAX = 500;

export const Visibility = z.enum(['public', 'private', 'group']);
export type Visibility = z.infer<typeof Visibility>;

/**
 * SKILL.md front matter as the specification defines it. Unknown keys are kept (registry
 * fields and client extensions live there); `strict` validation reports them.
 */
export const FrontMatter = z
  .object({
    name: z.string().min(1).max(SKILL_NAME_MAX).regex(SKILL_NAME_PATTERN),
    description: z.string().min(1).max(DESCRIPTION_MAX),
    license: z.string().optional(),
    compatibility: z.string().min(1).max(COMPATIBILITY_MAX).optional(),
    metadata: z.record(z.string(), z.string()).optional(),
    'allowed-tools': z.string().optional(),
  })
  .catchall(z.unknown())
  .meta({ id: 'FrontMatter', description: 'SKILL.md YAML front matter (Agent Skills specification).' });
export type FrontMatter = z.infer<typeof FrontMatter>;

/** Fields of the spec that are allowed at the top level of the front matter. */
export const SPEC_FIELDS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'] as const;

/**
 * Registry fields from the seeds. Read from `metadata` (where the spec puts extra data, as
 * strings) or from the top level (older catalogs); a spec-valid skill never needs them.
 */
export const RegistryFields = z.object({
  tags: z.array(z.string()).default([]),
  domain: z.string().optional(),
  author: z.string().optional(),
  version: z.string().optional(),
  visibility: Visibility.default('public'),
  allowed_groups: z.array(z.string()).default([]),
  owner: z.string().optional(),
  repository_url: z.string().optional(),
});
export type RegistryFields = z.infer<typeof RegistryFields>;

export const Encoding = z.enum(['utf-8', 'base64']);
export type Encoding = z.infer<typeof Encoding>;

/** One file of a skill. Either `content` is present (stored) or `skipped` says why not. */
export const SkillFile = z.object({
  /** Path relative to the skill folder, `/`-separated, e.g. `scripts/extract.py`. */
  path: z.string().min(1),
  name: z.string().min(1),
  /** Extension without the dot, lowercased, or `unknown` (the seed's `file_type`). */
  type: z.string(),
  mime: z.string(),
  size: z.number().int().nonnegative(),
  /** sha256 hex of the original bytes on disk. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  encoding: Encoding,
  /** UTF-8 text as is, or base64 of the bytes. Absent when skipped. */
  content: z.string().optional(),
  skipped: z.object({ reason: z.string() }).optional(),
  /** Executable by its owner on disk (or as published by a peer); install gives it mode 0755. Absent: not executable. */
  executable: z.literal(true).optional(),
});
export type SkillFile = z.infer<typeof SkillFile>;

export const HealthStatus = z.enum(['healthy', 'unhealthy', 'unknown']);
export type HealthStatus = z.infer<typeof HealthStatus>;

/** Where a catalog entry came from: this repository, a peer feed, or a SKILL.md URL. */
export const SkillSource = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local'), dir: z.string() }),
  /**
   * Imported from peer `peer`. `via`: the registries it passed through after its origin (the
   * skill's `registry`), ending with `peer`; absent (or empty) when `peer` is its origin.
   */
  z.object({
    kind: z.literal('peer'),
    peer: z.string(),
    feed_url: z.string(),
    via: z.array(z.string()).optional(),
    /** The origin's signed statement, as the peer published it (passed through unchanged when re-exported). */
    origin_signature: z
      .object({ registry: z.string(), id: z.string(), digest: z.string(), key: z.string(), signature: z.string() })
      .optional(),
    /** Whether the origin's signature was checked against the origin's key (pinned, or from its own feed). */
    origin_verified: z.boolean().optional(),
  }),
  z.object({ kind: z.literal('url'), skill_md_url: z.string(), skill_md_raw_url: z.string() }),
]);
export type SkillSource = z.infer<typeof SkillSource>;

export const Health = z.object({
  status: HealthStatus,
  checked_at: z.string().optional(),
  detail: z.string().optional(),
});
export type Health = z.infer<typeof Health>;

/** One recorded version of a skill (skillpress create/update/rollback, or a peer's published history). */
export const SkillVersionEntry = z.object({
  version: z.string(),
  date: z.string(),
  digest: z.string(),
  changes: z.array(z.string()),
});
export type SkillVersionEntry = z.infer<typeof SkillVersionEntry>;

export const Skill = z.object({
  /** Stable identifier: the skill name (unique in a catalog). */
  id: z.string(),
  name: z.string(),
  /**
   * Display title: the `name` as written in SKILL.md when it is not a valid skill name
   * (`Ahrefs Automation`) and lenient mode loaded the skill under a valid one. Absent otherwise:
   * show `name`.
   */
  title: z.string().optional(),
  description: z.string(),
  /** The front matter exactly as parsed from SKILL.md (SEP-2640 serves it verbatim). */
  frontmatter: z.record(z.string(), z.unknown()),
  license: z.string().optional(),
  compatibility: z.string().optional(),
  allowed_tools: z.array(z.string()).default([]),
  registry_fields: RegistryFields,
  /** Markdown body of SKILL.md after the front matter. */
  body: z.string(),
  /** Line in SKILL.md where the body starts (1-based), for problem reports. */
  body_line: z.number().int().positive(),
  files: z.array(SkillFile),
  /** sha256 over the sorted (path, sha256) list of stored files: changes iff any byte changes. */
  digest: z.string(),
  /** Registry the skill belongs to: this registry's name, or the peer it was imported from. */
  registry: z.string(),
  source: SkillSource,
  health: Health,
  updated_at: z.string(),
  /** What agents' use of it adds up to: this registry's figures (`analytics.source`), or an imported skill's peer's. */
  usage: UsageFigures.optional(),
  /**
   * Recorded versions, newest first: this registry's (git commits or the version store, read by
   * the build), or the history an imported skill's peer published, attributed to `registry`.
   */
  history: z.object({ registry: z.string(), entries: z.array(SkillVersionEntry) }).optional(),
  /** Set by `checkTools` when the build checked the skill's tools against MCP servers. */
  tools_status: ToolsStatus.optional(),
  /** False when the config (`skills.disabled`) or the skill (`metadata.enabled: false`) disables it. */
  is_enabled: z.boolean().optional(),
});
export type Skill = z.infer<typeof Skill>;

export const Severity = z.enum(['error', 'warning']);
export type Severity = z.infer<typeof Severity>;

/** A problem found while loading: enough for a person to find and fix it. */
export const Problem = z.object({
  severity: Severity,
  /** Skill folder relative to the scanned root (or a peer/URL for imported skills). */
  skill: z.string(),
  file: z.string().optional(),
  line: z.number().int().positive().optional(),
  field: z.string().optional(),
  /** Short stable rule id, e.g. `name-matches-folder`. */
  rule: z.string(),
  message: z.string(),
  /** Another skill folder the problem concerns (`name-unique`: the one that keeps the name). */
  related: z.string().optional(),
});
export type Problem = z.infer<typeof Problem>;

export const Catalog = z.object({
  skills: z.array(Skill),
  problems: z.array(Problem),
});
export type Catalog = z.infer<typeof Catalog>;
