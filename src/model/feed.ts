/**
 * The feed (v1) that peers, the site and the MCP server read: `dist/feed/v1/…`.
 * These schemas are the published contract; JSON Schemas are generated from them and
 * written beside the feed files (`feed/v1/schemas/<Name>.schema.json`).
 *
 * URLs: every URL inside the feed is RELATIVE TO THE FEED ROOT (the folder holding
 * `index.json`, i.e. `feed/v1/`) — whichever file it appears in — and percent-encoded per
 * path segment (`files/x/%23hash%20%3Fq%2520.txt`). Resolve with `new URL(url, indexUrl)`.
 *
 * Layout:
 *   index.json            FeedIndex
 *   cards.json            Cards
 *   skills/<id>.json      FeedSkill
 *   files/<id>/<path>     raw bytes of every stored file
 *   search.json           metadata search index (src/search, loaded first)
 *   search-body.json      SKILL.md body search index (src/search, loaded lazily)
 *   changes.json          Changes
 *   schemas/*.schema.json JSON Schemas of the above
 * and beside the feed: `/.well-known/agent-skills/index.json` (DiscoveryIndex) with
 * `<id>.tar.gz`, `<id>.zip` and `<id>/SKILL.md`.
 */
import { z } from 'zod';
import { Encoding, Health, HealthStatus } from './skill.ts';

export const FEED_VERSION = '1';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);
/** `sha256:<hex>`, the digest form of the discovery RFC and SEP-2640. */
const Digest = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/** Level 1: what an agent or a person needs to decide whether a skill is relevant. */
export const Card = z
  .object({
    id: z.string(),
    name: z.string(),
    /** Display title when the name written in SKILL.md is not a valid skill name (`Ahrefs Automation`); show `name` when absent. */
    title: z.string().optional(),
    description: z.string(),
    tags: z.array(z.string()),
    domain: z.string().optional(),
    version: z.string().optional(),
    /** Registry the skill comes from (this one, or the peer it was imported from). */
    registry: z.string(),
    updated_at: z.string(),
    /** Content digest over every stored file's path and sha256. */
    digest: Digest,
    /** Tokens of SKILL.md (front matter + body). */
    tokens: z.number().int().nonnegative(),
    /** Relative to the feed root (`feed/v1/`). */
    links: z.object({
      /** The skill's JSON: `skills/<id>.json`. */
      skill: z.string(),
      /** The skill's page on the site: `../../skills/<id>/`. */
      page: z.string(),
      /** The `.tar.gz` archive (root holds SKILL.md): `../../.well-known/agent-skills/<id>.tar.gz`. */
      archive: z.string().optional(),
      /** The same files as a `.zip`, for people. */
      zip: z.string().optional(),
    }),
  })
  .meta({ id: 'Card' });
export type Card = z.infer<typeof Card>;

export const FeedFile = z
  .object({
    path: z.string(),
    size: z.number().int().nonnegative(),
    sha256: Sha256,
    encoding: Encoding,
    mime: z.string(),
    type: z.string(),
    /** Tokens for text files. */
    tokens: z.number().int().nonnegative().optional(),
    /** Raw bytes, relative to the feed root: `files/<id>/<path>`. Absent when skipped. */
    url: z.string().optional(),
    skipped: z.object({ reason: z.string() }).optional(),
  })
  .meta({ id: 'FeedFile' });
export type FeedFile = z.infer<typeof FeedFile>;

/** A scoped tool from `tools.json` (seed 002). */
export const ScopedTool = z.object({ name: z.string(), description: z.string().optional() }).catchall(z.unknown());
/** A scoped resource from `resources.json` (seed 002). */
export const ScopedResource = z.object({ name: z.string().optional(), uri: z.string().optional(), description: z.string().optional() }).catchall(z.unknown());

/** Levels 2 and 3: card + summary fields + SKILL.md + the file list. */
export const FeedSkill = z
  .object({
    feed_version: z.literal(FEED_VERSION),
    card: Card,
    summary: z.object({
      license: z.string().optional(),
      compatibility: z.string().optional(),
      allowed_tools: z.array(z.string()),
      requirements: z.array(z.unknown()).default([]),
      author: z.string().optional(),
      owner: z.string().optional(),
      repository_url: z.string().optional(),
      health: Health,
      /** Scoped MCP tools from the skill's `tools.json` (seed 002). */
      tools: z.array(ScopedTool).default([]),
      /** Scoped MCP resources from the skill's `resources.json` (seed 002). */
      resources: z.array(ScopedResource).default([]),
      /** Attribution of an imported skill: the peer's feed URL or the registered SKILL.md URL. */
      source_url: z.string().optional(),
    }),
    /** The front matter exactly as in SKILL.md. */
    frontmatter: z.record(z.string(), z.unknown()),
    /** SKILL.md, exactly as stored. */
    skill_md: z.string(),
    /** The markdown body of SKILL.md (after the front matter). */
    body: z.string(),
    files: z.array(FeedFile),
  })
  .meta({ id: 'FeedSkill' });
export type FeedSkill = z.infer<typeof FeedSkill>;

export const Cards = z
  .object({ feed_version: z.literal(FEED_VERSION), generated_at: z.string(), skills: z.array(Card) })
  .meta({ id: 'Cards' });
export type Cards = z.infer<typeof Cards>;

export const FeedPart = z.object({ url: z.string(), sha256: Sha256, bytes: z.number().int().nonnegative() });

export const FeedIndex = z
  .object({
    feed_version: z.literal(FEED_VERSION),
    registry: z.object({ name: z.string(), title: z.string(), url: z.string().optional(), description: z.string().optional() }),
    generated_at: z.string(),
    counts: z.object({ skills: z.number().int(), files: z.number().int(), withheld: z.number().int(), imported: z.number().int() }),
    /**
     * Every other part with its sha256, keyed by name: `cards`, `search`, `search_body`,
     * `changes`, `schema:<Name>`. URLs relative to the feed root.
     */
    parts: z.record(z.string(), FeedPart),
    /** Every skill's JSON with its sha256, so a peer can verify what it fetches. */
    skills: z.array(z.object({ id: z.string(), url: z.string(), sha256: Sha256, digest: Digest })),
  })
  .meta({ id: 'FeedIndex' });
export type FeedIndex = z.infer<typeof FeedIndex>;

export const Change = z.object({
  id: z.string(),
  change: z.enum(['added', 'updated', 'removed']),
  version: z.string().optional(),
  digest: Digest.optional(),
  previous_version: z.string().optional(),
  previous_digest: Digest.optional(),
  /** When the change was seen (build time). Removed skills stay listed as tombstones. */
  at: z.string(),
}).meta({ id: 'Change' });
export type Change = z.infer<typeof Change>;

export const Changes = z
  .object({
    feed_version: z.literal(FEED_VERSION),
    generated_at: z.string(),
    previous_generated_at: z.string().optional(),
    changes: z.array(Change),
  })
  .meta({ id: 'Changes' });
export type Changes = z.infer<typeof Changes>;

/** One entry of the Agent Skills discovery index (RFC v0.2.0). */
export const DiscoverySkill = z
  .object({
    name: z.string(),
    /** `skill-md`: the skill is only SKILL.md; `archive`: a `.tar.gz` whose root holds SKILL.md. */
    type: z.enum(['skill-md', 'archive']),
    description: z.string(),
    version: z.string().optional(),
    /** Relative to the index URL. */
    url: z.string(),
    /** sha256 of the artifact's exact bytes. */
    digest: Digest,
  })
  .meta({ id: 'DiscoverySkill' });
export type DiscoverySkill = z.infer<typeof DiscoverySkill>;

export const DISCOVERY_SCHEMA_URL = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';

/** `/.well-known/agent-skills/index.json`. */
export const DiscoveryIndex = z
  .object({ $schema: z.literal(DISCOVERY_SCHEMA_URL), skills: z.array(DiscoverySkill) })
  .meta({ id: 'DiscoveryIndex' });
export type DiscoveryIndex = z.infer<typeof DiscoveryIndex>;

/** The schemas published as JSON Schema beside the feed, by file name stem. */
export const PUBLISHED_SCHEMAS = { FeedIndex, Cards, Card, FeedSkill, FeedFile, Changes, DiscoveryIndex } as const;

export { HealthStatus };
