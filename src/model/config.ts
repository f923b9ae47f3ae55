/**
 * skillpress configuration (`config/skillpress.json`). The zod schema is the single source of
 * truth: defaults and descriptions live here; `config/skillpress.schema.json` (`npm run schemas`)
 * and docs/reference/config.md (`npm run docs`) are generated from it.
 */
import { z } from 'zod';
import { DEFAULT_IGNORE } from '../lib/ignore.ts';

export const MIB = 1024 * 1024;

const PeerFields = z.object({
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]*$/)
    .describe('Registry name the imported skills are attributed to.'),
  url: z
    .string()
    .url()
    .describe(
      "URL of the peer's `feed/v1/index.json`, of its site root (`feed/v1/index.json` is appended), of its feed folder, or of its site's feed page (`…/feed/`).",
    ),
  mode: z
    .enum(['all', 'allowlist', 'tags'])
    .default('all')
    .describe(
      '`all`: every public skill; `allowlist`: only the names in `skills`; `tags`: skills with any of `tags` (case-insensitive).',
    ),
  skills: z
    .array(z.string())
    .default([])
    .describe('Skill names for `allowlist`: required (not empty) with that mode, refused with the others.'),
  tags: z
    .array(z.string())
    .default([])
    .describe(
      'Tags for `tags`: a skill with any of them is imported. Required (not empty) with that mode, refused with the others.',
    ),
  public_key: z
    .string()
    .regex(/^ed25519:[A-Za-z0-9_-]{43}$/, 'must be "ed25519:" and the 32-byte key in base64url')
    .optional()
    .describe(
      "The peer's signing key, pinned (`ed25519:…`, as its feed's `index.json` publishes it): its skills, and copies of them re-exported by other peers, count as verified only when signed with this key; a peer whose feed names another key is not imported.",
    ),
});
/** A peer to import from; its mode and its lists must agree (peerModeLists). */
export const PeerConfig = PeerFields.superRefine(peerModeLists);
export type PeerConfig = z.infer<typeof PeerConfig>;

/** The list each mode reads (`allowlist` reads `skills`, `tags` reads `tags`), with an example entry. */
const MODE_LISTS = [
  { list: 'skills', mode: 'allowlist', example: '"skills": ["pdf-tools"]' },
  { list: 'tags', mode: 'tags', example: '"tags": ["pdf"]' },
] as const;

/**
 * A peer's mode and its lists agree: the mode's own list is not empty (an empty one imports
 * nothing, without a word), and no other mode's list is given (it would be ignored: `skills`
 * under mode `tags` matches no tag at all).
 */
function peerModeLists(peer: { mode: string; skills: string[]; tags: string[] }, ctx: z.RefinementCtx): void {
  const own = MODE_LISTS.find((m) => m.mode === peer.mode);
  for (const { list, mode, example } of MODE_LISTS) {
    const given = peer[list];
    if (mode === peer.mode && given.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: [list],
        message: `mode "${mode}" needs a non-empty ${list} list, or nothing is imported: list them, e.g. ${example}, or use "mode": "all" to import every skill`,
      });
    } else if (mode !== peer.mode && given.length > 0) {
      const fix = own
        ? `put them in ${own.list} (what mode "${own.mode}" reads), or set "mode": "${mode}"`
        : `set "mode": "${mode}" to import only these, or remove ${list}`;
      ctx.addIssue({
        code: 'custom',
        path: [list],
        message: `only mode "${mode}" reads ${list}, and this peer's mode is "${peer.mode}"${peer.mode === 'all' ? ' (the default), which imports every skill' : ''}: ${fix}`,
      });
    }
  }
}

export const SkillsConfig = z.object({
  root: z
    .string()
    .default('skills')
    .describe('The skills folder, for commands not given one (`--skills` or a folder argument).'),
  ignore: z
    .array(z.string())
    .default(DEFAULT_IGNORE)
    .describe(
      'Names never stored: a rule ending in `/` matches a folder name, any other a file name, at any depth; `*` matches any characters.',
    ),
  max_file_bytes: z
    .number()
    .int()
    .positive()
    .default(MIB)
    .describe(
      'Files larger than this are listed with a skip reason instead of stored (a file of exactly this size is kept).',
    ),
  max_depth: z.number().int().positive().default(8).describe('How deep below the root skill folders are looked for.'),
  precedence: z
    .array(
      z
        .string()
        .min(1)
        .refine((f) => !f.startsWith('/') && !f.split('/').includes('..'), {
          message: 'must be a folder inside the skills folder (relative, no "..")',
        }),
    )
    .default([])
    .describe(
      'Folders of the skills folder (relative, `/`-separated) whose skills keep a name that skills in other folders use too, the first listed first; each other skill of that name is left out with a `name-shadowed` warning instead of a `name-unique` error. For a catalog gathering several sources whose skills share names (`pdf`), e.g. `["anthropics+skills"]`. Folders not listed come after, in path order.',
    ),
  disabled: z
    .array(z.string().min(1))
    .default([])
    .describe(
      'Skills kept out of the feed, the site, the discovery index and the MCP server (Elasticsearch keeps them with `is_enabled: false`): names, or globs where `*` matches any characters. `skillpress enable|disable <name>` edits this list.',
    ),
});

const FederationFields = z.object({
  peers: z.array(PeerConfig).default([]).describe('Registries whose feeds are imported at every build.'),
  skill_urls: z
    .array(z.string().url())
    .default([])
    .describe('SKILL.md URLs to import (GitHub/GitLab/Bitbucket blob URLs are translated to raw URLs).'),
  trusted_domains: z
    .array(z.string())
    .default(['raw.githubusercontent.com', 'gitlab.com', 'bitbucket.org'])
    .describe('Hosts that may be fetched for `skill_urls` (exact host names).'),
  origin_keys: z
    .record(
      z.string(),
      z.string().regex(/^ed25519:[A-Za-z0-9_-]{43}$/, 'must be "ed25519:" and the 32-byte key in base64url'),
    )
    .default({})
    .describe(
      'Signing keys of registries that are not direct peers, by registry name: their skills re-exported by a peer count as verified when signed with this key.',
    ),
  reexport: z
    .boolean()
    .default(false)
    .describe(
      "Publish imported skills in this registry's own feed and discovery index too (the site always shows them).",
    ),
  timeout_ms: z
    .number()
    .int()
    .positive()
    .default(10_000)
    .describe('Deadline for one whole request (headers and body).'),
  peer_timeout_ms: z
    .number()
    .int()
    .positive()
    .default(120_000)
    .describe('Deadline for everything fetched from one peer in one build (its index, skills and files).'),
  max_bytes: z
    .number()
    .int()
    .positive()
    .default(50 * MIB)
    .describe('Most bytes read for one response; the download stops when it passes this.'),
  max_peer_bytes: z
    .number()
    .int()
    .positive()
    .default(1024 * MIB)
    .describe(
      'Most bytes downloaded from one peer in one build (cached items do not count); reserved before each download.',
    ),
});
export const FederationConfig = FederationFields.superRefine(uniquePeerNames);

/**
 * Each peer has its own name: skills are attributed to it, routes and cycles compare names, and
 * the build's counts are kept by name, so two peers of one name would be taken for one registry.
 */
function uniquePeerNames(federation: { peers: Array<{ name: string }> }, ctx: z.RefinementCtx): void {
  const first = new Map<string, number>();
  federation.peers.forEach(({ name }, i) => {
    const earlier = first.get(name);
    if (earlier === undefined) return void first.set(name, i);
    ctx.addIssue({
      code: 'custom',
      path: ['peers', i, 'name'],
      message: `"${name}" is federation.peers.${earlier}.name too: each peer needs a name of its own (its registry's name), since its skills are attributed to that name; rename one, or remove the duplicate entry`,
    });
  });
}

export const DuplicatesConfig = z.object({
  near_threshold: z
    .number()
    .min(0)
    .max(1)
    .default(0.85)
    .describe(
      'Cosine similarity (TF-IDF over description + body) at or above which two skills are reported as near-duplicates.',
    ),
});

export const AnalyticsConfig = z.object({
  source: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe(
      'Usage events the build publishes figures from: JSON Lines files, folders of `*.jsonl` files (a relative path is read from where `skills.root` is: the folder holding `skillpress.json`, or holding its `config/`), or an Elasticsearch URL (the `index` there). A source that cannot be read stops the build. Absent: no figures.',
    ),
  index: z
    .string()
    .default('agent_skill_usage')
    .describe('The usage index, for an Elasticsearch source (and `skillpress mcp --usage <URL>`).'),
  min_reports: z
    .number()
    .int()
    .positive()
    .default(5)
    .describe('Outcome reports a skill needs before its success rate is published (and used in ranking).'),
  min_reporters: z
    .number()
    .int()
    .positive()
    .default(1)
    .describe(
      'Users who reported an outcome that a skill needs before its success rate is published: raise it where one user alone should not move a ranking.',
    ),
  salt: z
    .string()
    .min(16)
    .optional()
    .describe(
      "Salt of the users' hashes in usage events (SKILLPRESS_USAGE_SALT wins). Absent: a random one kept in the usage cache folder.",
    ),
});

/** One server's own deadline, for either kind of server. */
const ServerDeadline = z
  .number()
  .int()
  .positive()
  .optional()
  .describe('Deadline for this server (`tools_check.timeout_ms` otherwise).');

/** An MCP server the catalog's skills may use: a command started over stdio, or a Streamable HTTP URL. */
export const McpServerConfig = z.union([
  z
    .object({
      command: z.string().min(1).describe('Program started for the check (stdio), e.g. `npx`.'),
      args: z.array(z.string()).default([]).describe('Its arguments.'),
      env: z.record(z.string(), z.string()).default({}).describe('Environment variables added to the current ones.'),
      timeout_ms: ServerDeadline,
    })
    .strict(),
  z
    .object({
      url: z.string().url().describe('Streamable HTTP endpoint, e.g. `https://mcp.example.org/mcp`.'),
      timeout_ms: ServerDeadline,
    })
    .strict(),
]);
export type McpServerConfig = z.infer<typeof McpServerConfig>;

export const ToolsCheckConfig = z.object({
  timeout_ms: z
    .number()
    .int()
    .positive()
    .default(15_000)
    .describe(
      'Deadline for one server: start, connect and list every tool; a server past it is reported unreachable (and stopped).',
    ),
  max_tools: z
    .number()
    .int()
    .positive()
    .default(10_000)
    .describe('Most tools read from one server (pages are read until this many).'),
});

export const BundleConfig = z
  .object({
    description: z.string().optional().describe('One line about the bundle, in the feed.'),
    skills: z
      .array(z.string().min(1))
      .default([])
      .describe('Member skills: names, or globs where `*` matches any characters.'),
    tags: z
      .array(z.string().min(1))
      .default([])
      .describe('Member skills: every skill with any of these tags (case-insensitive).'),
    enabled: z.boolean().default(true).describe('False: every member is disabled, as if listed in `skills.disabled`.'),
  })
  .strict();
export type BundleConfig = z.infer<typeof BundleConfig>;

const SkillpressFields = z.object({
  registry: z
    .object({
      name: z
        .string()
        .default('local')
        .describe("This registry's name: the `registry` of its own skills in cards, skill JSON and peers' imports."),
      title: z.string().default('Skills catalog').describe("The catalog's title, on the site and in the feed's index."),
      url: z
        .string()
        .optional()
        .describe(
          'Public URL of the published site, if known (absolute URLs in the discovery index stay relative without it).',
        ),
      description: z.string().optional().describe('One paragraph about the catalog, on the site and in the feed.'),
      signing_key: z
        .string()
        .optional()
        .describe(
          "PEM file (PKCS#8, ed25519) of the key this registry signs its skills' origin statements with, relative to the working directory; made on the first build when missing. Must be outside the output and `.cache/`. `SKILLPRESS_SIGNING_KEY` (the PEM itself, e.g. a CI secret) wins. Unset: nothing is signed, and peers show this registry's skills re-exported by others as unverified.",
        ),
    })
    .prefault({})
    .describe('Who publishes this catalog.'),
  skills: SkillsConfig.prefault({}).describe('Where the skills are and which of their files are stored.'),
  federation: FederationConfig.prefault({}).describe(
    'Skills imported from peer registries and SKILL.md URLs, and the limits on fetching them.',
  ),
  duplicates: DuplicatesConfig.prefault({}).describe('Reporting skills that are identical or nearly so.'),
  versions: z
    .object({
      archives: z
        .number()
        .int()
        .min(0)
        .max(100)
        .default(5)
        .describe(
          "How many earlier versions of each skill stay downloadable (a `.tar.gz` with its sha256, listed in the skill JSON's `versions`); 0: none. Every recorded version is listed either way.",
        ),
    })
    .prefault({})
    .describe('The version history the build publishes for skills written with create/update (docs/authoring.md).'),
  mcp_servers: z
    .record(z.string().regex(/^[A-Za-z0-9_.-]+$/), McpServerConfig)
    .default({})
    .describe(
      "MCP servers the skills may use, by the name skills give them (`mcp__<name>__tool`, `requires.mcp`): `{ command, args, env }` (stdio) or `{ url }` (Streamable HTTP). When set, `build` and `check-tools` check every skill's tools against them.",
    ),
  bundles: z
    .record(z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/), BundleConfig)
    .default({})
    .describe(
      'Named groups of skills, enabled or disabled as one, published in the feed index with their members; `skillpress install <source> --bundle <name>` installs them all.',
    ),
  tools_check: ToolsCheckConfig.prefault({}).describe('Limits of the tools check against `mcp_servers`.'),
  site: z
    .object({
      base: z.string().default('/').describe('Path the site is served under, e.g. `/` or `/skills/` (`--base` wins).'),
      command: z
        .string()
        .regex(/^\S.*\S$|^\S$/)
        .default('skillpress')
        .describe(
          "How the site's snippets run skillpress (the MCP client configuration, `… install`): `skillpress` when it is installed globally, or e.g. `npx skillpress` when your readers install it in their project.",
        ),
      files_base_url: z
        .string()
        .url()
        .optional()
        .describe(
          "Where the feed's `files/` folder is published on an origin of its own (e.g. `https://files.example.org/skills/`): the site links skill files there, so no skill file is ever opened on the catalog's origin. The fix for hosts that cannot set headers (docs/site.md).",
        ),
    })
    .prefault({})
    .describe('The catalog site.'),
  analytics: AnalyticsConfig.prefault({}).describe(
    'Usage figures (uses, outcomes, success rate, rating): where the build reads the events (docs/usage.md).',
  ),
});
export const SkillpressConfig = SkillpressFields.superRefine(peersAreNotUs);

/**
 * No peer carries this registry's own name: every skill it sends would look like one of ours
 * coming back (an import cycle) and be refused, one warning each, instead of one clear mistake.
 */
function peersAreNotUs(
  config: { registry: { name: string }; federation: { peers: Array<{ name: string }> } },
  ctx: z.RefinementCtx,
): void {
  const ours = config.registry.name;
  config.federation.peers.forEach(({ name }, i) => {
    if (name !== ours) return;
    ctx.addIssue({
      code: 'custom',
      path: ['federation', 'peers', i, 'name'],
      message: `"${name}" is this registry's own name (registry.name${ours === 'local' ? ', "local" when not set' : ''}): name a peer by its registry's name (the one its feed's index.json gives); under ours, every skill it sends would be refused as one of ours coming back (an import cycle). Rename the peer, or give this registry a name of its own`,
    });
  });
}
export type SkillpressConfig = z.infer<typeof SkillpressConfig>;
