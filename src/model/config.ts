/**
 * skillpress configuration (`config/skillpress.json`). The zod schema is the single source of
 * truth: defaults live here, the README documents these fields, and `config/skillpress.schema.json`
 * is generated from it.
 */
import { z } from 'zod';
import { DEFAULT_IGNORE } from '../lib/ignore.ts';

export const MIB = 1024 * 1024;

export const PeerConfig = z.object({
  /** Registry name the imported skills are attributed to. */
  name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/),
  /** URL of the peer's `feed/v1/index.json` (or its site root; `feed/v1/index.json` is appended). */
  url: z.string().url(),
  mode: z.enum(['all', 'allowlist', 'tags']).default('all'),
  /** Skill names for `allowlist`. */
  skills: z.array(z.string()).default([]),
  /** Tags for `tags`: a skill with any of them is imported. */
  tags: z.array(z.string()).default([]),
});
export type PeerConfig = z.infer<typeof PeerConfig>;

export const SkillsConfig = z.object({
  root: z.string().default('skills'),
  ignore: z.array(z.string()).default(DEFAULT_IGNORE),
  /** Files larger than this are listed with a skip reason instead of stored (a file of exactly this size is kept). */
  max_file_bytes: z.number().int().positive().default(MIB),
  /** How deep below the root skill folders are looked for. */
  max_depth: z.number().int().positive().default(8),
});

export const FederationConfig = z.object({
  peers: z.array(PeerConfig).default([]),
  /** SKILL.md URLs (GitHub/GitLab/Bitbucket blob URLs are translated to raw URLs). */
  skill_urls: z.array(z.string().url()).default([]),
  /** Hosts that may be fetched for `skill_urls`. */
  trusted_domains: z.array(z.string()).default(['raw.githubusercontent.com', 'gitlab.com', 'bitbucket.org']),
  /** Re-publish imported skills in this registry's own feed. */
  reexport: z.boolean().default(false),
  /** Deadline for one whole request (headers and body). */
  timeout_ms: z.number().int().positive().default(10_000),
  /** Deadline for everything fetched from one peer in one build (its index, skills and files). */
  peer_timeout_ms: z.number().int().positive().default(120_000),
  /** Most bytes read for one response; the download stops when it passes this. */
  max_bytes: z.number().int().positive().default(50 * MIB),
  /** Most bytes downloaded from one peer in one build (cached items do not count); reserved before each download. */
  max_peer_bytes: z.number().int().positive().default(1024 * MIB),
});

export const DuplicatesConfig = z.object({
  /** Cosine similarity (TF-IDF over description + body) at or above which two skills are reported as near-duplicates. */
  near_threshold: z.number().min(0).max(1).default(0.85),
});

export const SkillpressConfig = z.object({
  registry: z
    .object({
      name: z.string().default('local'),
      title: z.string().default('Skills catalog'),
      /** Public URL of the published site, if known (absolute URLs in the discovery index stay relative without it). */
      url: z.string().optional(),
      description: z.string().optional(),
    })
    .prefault({}),
  skills: SkillsConfig.prefault({}),
  federation: FederationConfig.prefault({}),
  duplicates: DuplicatesConfig.prefault({}),
  site: z
    .object({
      base: z.string().default('/'),
      /**
       * Where the feed's `files/` folder is published on an origin of its own (e.g.
       * `https://files.example.org/skills/`): the site links skill files there, so no skill file is
       * ever opened on the catalog's origin. The fix for hosts that cannot set headers (docs/site.md).
       */
      files_base_url: z.string().url().optional(),
    })
    .prefault({}),
});
export type SkillpressConfig = z.infer<typeof SkillpressConfig>;
