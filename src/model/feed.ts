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
import { UsageFigures } from './usage.ts';
import { SkillNeeds } from './requirements.ts';

export const FEED_VERSION = '1';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** Most registries a skill's route (`via`) may name; a longer one is refused on import. */
export const MAX_VIA = 8;

const PublicKey = z
  .string()
  .regex(/^ed25519:[A-Za-z0-9_-]{43}$/, 'must be "ed25519:" and the 32-byte key in base64url')
  .describe("An ed25519 public key: `ed25519:` and the key's 32 bytes in base64url (43 characters).");
/** `sha256:<hex>`, the digest form of the discovery RFC and SEP-2640. */
const Digest = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be "sha256:" and 64 hex digits');

export const Card = z
  .object({
    id: z.string().describe("The skill's identifier in this feed: its name."),
    name: z.string().describe('`name` from the front matter, or the valid name it was loaded under (see `title`).'),
    title: z
      .string()
      .optional()
      .describe(
        'Display title when the name written in SKILL.md is not a valid skill name (`Ahrefs Automation`); show `name` when absent.',
      ),
    description: z.string().describe('`description` from the front matter.'),
    tags: z.array(z.string()),
    domain: z.string().optional(),
    folder: z
      .string()
      .optional()
      .describe(
        "The folder holding the skill's folder, relative to the skills folder, `/`-separated (`.curated`, `plugins/git/skills`): catalogs sort skills into folders where they carry no tags. Absent for a skill at the top and for imported skills.",
      ),
    version: z.string().optional(),
    registry: z
      .string()
      .describe(
        'Registry the skill comes from: this one, or its origin when it was imported (federation keeps the origin).',
      ),
    via: z
      .array(z.string())
      .max(MAX_VIA)
      .optional()
      .describe(
        'An imported skill\'s route: the registries it passed through after its origin, the last being the one this feed imported it from (`["a"]`: registry → a → this feed). Absent when this feed imported it from its origin, and for this registry\'s own skills.',
      ),
    origin_verified: z
      .boolean()
      .optional()
      .describe(
        "An imported skill: `true` when this registry checked the origin's signature (`FeedSkill.origin_signature`) against the origin's key, pinned in its config or read from the origin's own feed; `false` otherwise (show it as unverified). Absent for this registry's own skills. A registry importing this feed checks the signature itself and never relies on this field.",
      ),
    updated_at: z
      .string()
      .describe(
        "When the skill last changed (ISO 8601; capped by SOURCE_DATE_EPOCH): its folder's last commit when the skills are in git and the folder has nothing uncommitted, else its files' newest mtime.",
      ),
    digest: Digest.describe("Content digest over every stored file's path and sha256."),
    tokens: z.number().int().nonnegative().describe('Tokens of SKILL.md (front matter + body).'),
    invocation: z
      .enum(['user'])
      .optional()
      .describe(
        "`user` when the skill's author keeps it for people to start: `disable-model-invocation: true` in its front matter (Claude Code's field, read by VS Code too). An agent does not pick it on its own: `best_skill` names it without answering with it. Absent otherwise.",
      ),
    usage: UsageFigures.optional().describe(
      "Uses, outcomes, success rate and rating, when the build read usage events (`analytics.source`); an imported skill's are its peer's, attributed by `usage.registry`.",
    ),
    links: z
      .object({
        skill: z.string().describe("The skill's JSON: `skills/<id>.json`."),
        page: z.string().describe("The skill's page on the site: `../../skills/<id>/`."),
        archive: z
          .string()
          .optional()
          .describe('The `.tar.gz` archive (root holds SKILL.md): `../../.well-known/agent-skills/<id>.tar.gz`.'),
        zip: z.string().optional().describe('The same files as a `.zip`, for people.'),
      })
      .describe('Relative to the feed root (`feed/v1/`).'),
  })
  .meta({ id: 'Card', description: 'Level 1: what an agent or a person needs to decide whether a skill is relevant.' });
export type Card = z.infer<typeof Card>;

export const FeedFile = z
  .object({
    path: z.string().describe('Relative to the skill folder, `/`-separated.'),
    size: z.number().int().nonnegative().describe('Bytes.'),
    sha256: Sha256,
    encoding: Encoding.describe('`utf-8` for text, `base64` for anything else (as stored in Elasticsearch).'),
    mime: z.string(),
    type: z.string().describe('Extension without the dot, lowercased, or `unknown`.'),
    tokens: z.number().int().nonnegative().optional().describe('Tokens, for text files.'),
    url: z
      .string()
      .optional()
      .describe('Raw bytes, relative to the feed root: `files/<id>/<path>`. Absent when skipped.'),
    skipped: z
      .object({ reason: z.string() })
      .optional()
      .describe('Why the file is listed but not stored (over the size limit, unreadable).'),
    executable: z
      .literal(true)
      .optional()
      .describe('The file is executable (mode 0755 when installed); absent: mode 0644.'),
  })
  .meta({ id: 'FeedFile', description: 'One file of a skill, in the skill JSON.' });
export type FeedFile = z.infer<typeof FeedFile>;

/** A scoped tool from `tools.json`. */
export const ScopedTool = z.object({ name: z.string(), description: z.string().optional() }).catchall(z.unknown());
/** A scoped resource from `resources.json`. */
export const ScopedResource = z
  .object({ name: z.string().optional(), uri: z.string().optional(), description: z.string().optional() })
  .catchall(z.unknown());

export const OriginSignature = z
  .object({
    registry: z.string().describe("The origin registry the statement names (the card's `registry`)."),
    id: z.string().describe("The skill's id."),
    digest: Digest.describe("The skill's content digest (the card's `digest`)."),
    key: PublicKey.describe(
      "The key that signed. It says which key to check with, never that it is trusted: the verifier uses the key it has for `registry` (pinned, or from that registry's own feed).",
    ),
    signature: z
      .string()
      .regex(/^[A-Za-z0-9_-]{86}$/)
      .describe(
        'ed25519 signature, base64url, of the UTF-8 bytes `skillpress-origin-v1\\nregistry <registry>\\nid <id>\\ndigest <digest>\\n`.',
      ),
  })
  .meta({
    id: 'OriginSignature',
    description:
      "The origin registry's signed statement that it publishes this skill with this content. Re-exporters pass it through unchanged.",
  });
export type OriginSignature = z.infer<typeof OriginSignature>;

/** The version of the `versions` block's own layout: a reader checks it before reading the block. */
export const VERSIONS_SCHEMA = 1;

export const SkillVersionOut = z
  .object({
    version: z.string(),
    date: z.string().describe('When this version was written (ISO 8601).'),
    digest: Digest.describe("The skill digest of this version's files (as a card's `digest`)."),
    changes: z.array(z.string()).describe('What changed from the version before, one line each.'),
    archive: z
      .object({
        url: z
          .string()
          .describe('Relative to the feed root: `../../.well-known/agent-skills/versions/<id>/<version>.tar.gz`.'),
        sha256: Sha256.describe("sha256 of the archive's exact bytes."),
        bytes: z.number().int().nonnegative(),
      })
      .optional()
      .describe(
        'An earlier version kept downloadable (`versions.archives` in the config); absent for the latest (use `links.archive`) and older ones.',
      ),
  })
  .meta({ id: 'SkillVersion', description: "One version in a skill's history." });
export type SkillVersionOut = z.infer<typeof SkillVersionOut>;

export const SkillVersions = z
  .object({
    schema: z
      .number()
      .int()
      .describe(
        'Layout version of this block (1). A reader uses the block only when it knows the layout, and ignores it otherwise.',
      ),
    latest: z
      .string()
      .describe('The version this skill JSON describes (what the discovery index and `links.archive` serve).'),
    registry: z.string().describe('Whose history this is: this registry, or the peer an imported skill came from.'),
    history: z.array(SkillVersionOut).describe('Every recorded version, newest first.'),
  })
  .meta({
    id: 'SkillVersions',
    description: "A skill's version history (optional; present for skills written with skillpress create/update).",
  });
export type SkillVersions = z.infer<typeof SkillVersions>;

export const FeedSkill = z
  .object({
    feed_version: z.literal(FEED_VERSION),
    card: Card,
    origin_signature: OriginSignature.optional().describe(
      "The origin registry's signature over (registry, id, content digest): made by this registry for its own skills when it has a signing key, passed through unchanged for imported ones. Absent when the origin signs nothing.",
    ),
    summary: z.object({
      license: z.string().optional(),
      compatibility: z.string().optional(),
      allowed_tools: z.array(z.string()),
      requirements: z.array(z.unknown()).default([]),
      needs: SkillNeeds.optional().describe(
        'What the skill needs (tools, MCP servers, requirements, target agents, and the result of checking its tools), versioned by its own `version`. Absent in feeds written before it existed.',
      ),
      author: z.string().optional(),
      owner: z.string().optional(),
      repository_url: z.string().optional(),
      health: Health,
      tools: z
        .array(ScopedTool)
        .default([])
        .describe(
          "Scoped MCP tools from the skill's `tools.json`, returned with the skill by the MCP server's `view_skill`.",
        ),
      resources: z
        .array(ScopedResource)
        .default([])
        .describe(
          "Scoped MCP resources from the skill's `resources.json`, returned with the skill by the MCP server's `view_skill`.",
        ),
      source_url: z
        .string()
        .optional()
        .describe("Attribution of an imported skill: the peer's feed URL or the registered SKILL.md URL."),
    }),
    frontmatter: z.record(z.string(), z.unknown()).describe('The front matter exactly as in SKILL.md.'),
    skill_md: z.string().describe('SKILL.md, exactly as stored.'),
    body: z.string().describe('The markdown body of SKILL.md (after the front matter).'),
    files: z.array(FeedFile).describe('Every file of the skill, SKILL.md included, stored or skipped.'),
    versions: SkillVersions.optional().describe(
      "The skill's version history, when it has one (optional; readers that do not know it ignore it).",
    ),
  })
  .meta({
    id: 'FeedSkill',
    description: '`skills/<id>.json`, levels 2 and 3: card + summary fields + SKILL.md + the file list.',
  });
export type FeedSkill = z.infer<typeof FeedSkill>;

export const Cards = z
  .object({ feed_version: z.literal(FEED_VERSION), generated_at: z.string(), skills: z.array(Card) })
  .meta({ id: 'Cards', description: "`cards.json`: every public skill's card." });
export type Cards = z.infer<typeof Cards>;

export const FeedPart = z.object({ url: z.string(), sha256: Sha256, bytes: z.number().int().nonnegative() });

export const FeedIndex = z
  .object({
    feed_version: z.literal(FEED_VERSION),
    registry: z.object({
      name: z.string(),
      title: z.string(),
      url: z.string().optional(),
      description: z.string().optional(),
      public_key: PublicKey.optional().describe(
        "The key this registry signs its own skills' origin statements with (`FeedSkill.origin_signature`). Absent: it signs nothing.",
      ),
    }),
    generated_at: z
      .string()
      .describe(
        "When the build ran (ISO 8601; SOURCE_DATE_EPOCH when set). A build that changes nothing keeps the previous build's, and so its bytes.",
      ),
    counts: z
      .object({
        skills: z.number().int(),
        files: z.number().int(),
        withheld: z.number().int(),
        imported: z.number().int(),
      })
      .describe('Skills and files in the feed; private and group skills withheld from it; skills imported from peers.'),
    parts: z
      .record(z.string(), FeedPart)
      .describe(
        'Every other part with its sha256, keyed by name: `cards`, `search`, `search_body`, `skill_vectors`, `changes`, `schema:<Name>`. URLs relative to the feed root. ' +
          "`skill_vectors` (skill-vectors.bin, optional) holds each skill's embedding of its name and description by the static model shipped in the package, in the order of search.json's documents: " +
          'the bytes `SPV2`, uint32 count, uint32 dims, uint32 0, float32 unit (little endian); dims float32 weights; count bytes of scale (× unit); count rows of dims / 8 bytes of sign bits (bit b of byte j: dimension 8j + b); 1 + dims / 8 bytes per skill. ' +
          "Each vector is rotated by a randomized Hadamard transform (±1 per dimension from the Park–Miller generator, seed 12345, bit 0 of each draw; then the Walsh–Hadamard transform over √dims) and centred on the catalog mean: a bit is set where the skill is above the mean, a weight is the mean distance from the mean in that dimension, a scale the skill's mean distance in units of the weights. " +
          "Closeness to a request: its embedding, rotated the same way, times the weights, summed with each skill's signs (+ set, − clear), times the skill's scale; then a z-score over the catalog.",
      ),
    skills: z
      .array(z.object({ id: z.string(), url: z.string(), sha256: Sha256, digest: Digest }))
      .describe("Every skill's JSON with its sha256, so a peer can verify what it fetches."),
    bundles: z
      .array(z.object({ name: z.string(), description: z.string().optional(), skills: z.array(z.string()) }))
      .optional()
      .describe(
        'Named groups of skills installed together (`skills`: the ids of the members in this feed). Absent: none.',
      ),
  })
  .meta({
    id: 'FeedIndex',
    description: '`index.json`, the manifest: the registry, counts, and every other part with its sha256.',
  });
export type FeedIndex = z.infer<typeof FeedIndex>;

export const Change = z
  .object({
    id: z.string(),
    change: z.enum(['added', 'updated', 'removed']),
    version: z.string().optional(),
    digest: Digest.optional(),
    previous_version: z.string().optional(),
    previous_digest: Digest.optional(),
    at: z.string().describe('When the change was seen (build time). Removed skills stay listed as tombstones.'),
  })
  .meta({ id: 'Change', description: 'One skill added, updated or removed since the previous build.' });
export type Change = z.infer<typeof Change>;

export const Changes = z
  .object({
    feed_version: z.literal(FEED_VERSION),
    generated_at: z.string(),
    previous_generated_at: z
      .string()
      .optional()
      .describe('The build these changes are against: the one before the last build that changed a skill.'),
    changes: z.array(Change),
  })
  .meta({
    id: 'Changes',
    description:
      '`changes.json`: what the last build that changed a skill changed (a build that changes none keeps them), with tombstones.',
  });
export type Changes = z.infer<typeof Changes>;

export const DiscoverySkill = z
  .object({
    name: z.string(),
    type: z
      .enum(['skill-md', 'archive'])
      .describe('`skill-md`: the skill is only SKILL.md; `archive`: a `.tar.gz` whose root holds SKILL.md.'),
    description: z.string(),
    version: z.string().optional(),
    url: z.string().describe('Relative to the index URL.'),
    digest: Digest.describe("sha256 of the artifact's exact bytes."),
  })
  .meta({ id: 'DiscoverySkill', description: 'One entry of the Agent Skills discovery index (RFC v0.2.0).' });
export type DiscoverySkill = z.infer<typeof DiscoverySkill>;

export const DISCOVERY_SCHEMA_URL = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';

export const DiscoveryIndex = z
  .object({
    $schema: z.literal(DISCOVERY_SCHEMA_URL),
    registry: z
      .object({ name: z.string(), public_key: PublicKey })
      .optional()
      .describe(
        "skillpress's addition: the publishing registry and the key it signs its skills' origin statements with (the same as in its feed's index.json).",
      ),
    skills: z.array(DiscoverySkill),
  })
  .meta({ id: 'DiscoveryIndex', description: '`/.well-known/agent-skills/index.json` beside the feed (RFC v0.2.0).' });
export type DiscoveryIndex = z.infer<typeof DiscoveryIndex>;

/** The schemas published as JSON Schema beside the feed, by file name stem. */
export const PUBLISHED_SCHEMAS = {
  FeedIndex,
  Cards,
  Card,
  FeedSkill,
  FeedFile,
  OriginSignature,
  Changes,
  DiscoveryIndex,
  SkillNeeds,
} as const;

export { HealthStatus };
