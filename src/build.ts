/**
 * `build()`: skills/ (+ peers) → the output folder: the feed, the discovery index, archives, the
 * site, and Elasticsearch when a cluster is given. `skillpress build` is this call plus
 * argument parsing and printing.
 *
 * The output is assembled in a staging folder beside `out` and swapped in at the end, so a
 * failed build leaves the previous output untouched and readers never see half a build. The
 * feed is written first (the site's pages read it), the site is built into its own folder (Astro
 * empties its outDir), then the feed is moved in beside the site. A staging folder carries a
 * mark naming its build (host and process id); one whose build is no longer running was left by
 * a killed build, and the next build removes it.
 */
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LoadMemo } from './load/load-memo.ts';
import { SKILL_FILE } from './load/find-skills.ts';
import { invalidSkills } from './load/invalid.ts';
import { disabledNames, markEnabled } from './enable/index.ts';
import {
  askServers,
  checkToolsAgainst,
  unreachableReason,
  withToolsStatus,
  type ServerListing,
  type ToolsCheckReport,
} from './tools-check/index.ts';
import { federate } from './federate/index.ts';
import { duplicateProblems, findDuplicates } from './duplicates/index.ts';
import { tokenize } from './duplicates/tfidf.ts';
import {
  loadPreviousFeed,
  takeKeptFolders,
  writeFeed,
  type FeedSummary,
  type PreviousFeed,
} from './emit/feed/index.ts';
import { CATALOG_PATH, FEED_PATH, STAGING_MARK } from './lib/layout.ts';
import type { Catalog, Problem } from './model/skill.ts';
import type { z } from 'zod';
import type { SkillpressConfig } from './model/config.ts';
import { loadSigner, type Signer } from './lib/signing.ts';
import { progress } from './lib/progress.ts';
import { InvalidInputError, UsageError } from './lib/errors.ts';
import { isInsideDir, isMarkOfGoneProcess, processMark } from './lib/fs.ts';
import { TokenCounts } from './lib/token-counts.ts';
import { FileCache, keptText } from './lib/file-cache.ts';
import { codeFingerprint } from './lib/fingerprint.ts';
import { cacheFolder, openCacheRoot } from './lib/cache-dir.ts';
import { printable, quotePath } from './lib/paths.ts';
import { configFolder, describeConfig, findSkillsAndConfig, resolveConfig } from './config/load.ts';
import { headersFile } from './site/headers.ts';
import { writeBuildRecord } from './site/build-record.ts';
import { normalizeBase } from './site/urls.ts';
import { keepUnchangedDates } from './author/publish.ts';
import { loadLocalCatalog } from './local-catalog.ts';
import type { VersionArchives } from './emit/feed/versions.ts';
import type { SiteResult } from './site/build-site.ts';
import type { ConnectionOptions } from './emit/elasticsearch/connection.ts';
import type { IngestResult } from './emit/elasticsearch/ingest.ts';
import type { Figures, UsageSummary } from './usage/summarize.ts';
import { USAGE_VERSION } from './model/usage.ts';

/** A config object as a caller may write it: any field left out takes its default. */
export type SkillpressConfigInput = z.input<typeof SkillpressConfig>;

/**
 * Named like the flags of `skillpress build`. Nothing is read from the environment: the CLI reads
 * ELASTICSEARCH_URL (and the other ELASTICSEARCH_* variables) into `elasticsearch`,
 * SOURCE_DATE_EPOCH into `sourceDateEpoch`, and passes its working directory as `cwd`.
 */
export interface BuildOptions {
  /** Skills folder (default: `skills.root` of the config, `skills/`). */
  skills?: string;
  /** Output folder (default `dist`). */
  out?: string;
  /**
   * `--config`: a folder holding `skillpress.json` or the file (relative to `cwd`), or a config
   * object (partial ones get the defaults). Default: found from the skills folder upwards.
   */
  config?: string | SkillpressConfigInput;
  /**
   * With a config object: the folder it was read from, where its relative paths
   * (`analytics.source`, the commands of `mcp_servers`) are read from, as for a config found on
   * disk. Default: `cwd`.
   */
  configRoot?: string;
  /** A previous build (folder or URL) for the change list; default: what is in `out`. */
  previous?: string;
  /** Base path the site is served under (default: `site.base` of the config). */
  base?: string;
  /** Apply every rule of the specification as an error. */
  strict?: boolean;
  /** Build the site (default true). */
  site?: boolean;
  /**
   * The folder relative paths (`skills`, `out`, `config`, `previous`) resolve against, and where
   * `.cache/` (what later builds reuse; always safe to delete) is kept. Default: `process.cwd()`.
   * `out` may be neither this folder nor one holding it.
   */
  cwd?: string;
  /**
   * Where what later builds reuse is kept, instead of `.cache/` in `cwd` (the MCP server keeps it
   * in the skills' state folder, whatever folder its client starts it in).
   */
  cacheDir?: string;
  /**
   * Seconds since 1970 stamped on the feed and the archives instead of the skills' file times,
   * for reproducible builds (the CLI passes SOURCE_DATE_EPOCH). Default: the file times.
   */
  sourceDateEpoch?: number;
  /**
   * Ingest the local skills into this Elasticsearch cluster after the output is written (as
   * `ingestCatalog` does; `apiKey` or `username` + `password` sign in). Default: no ingest.
   */
  elasticsearch?: ConnectionOptions;
  /**
   * The registry's ed25519 private key as PEM, used instead of `registry.signing_key`'s file (the
   * CLI passes SKILLPRESS_SIGNING_KEY, so CI can keep the key in a secret). Default: the file.
   */
  signingKey?: string;
  /** Progress and notes, one line each (default: none). */
  log?: (line: string) => void;
  /** Show progress bars on an interactive terminal (default false). */
  progress?: boolean;
  /** Prefix of the Elasticsearch aliases (`<prefix>agent_skills`, `<prefix>agent_skill_files`). */
  indexPrefix?: string;
  /** Called with this registry's own skills once loaded (the MCP server's duplicate check keeps them). */
  onLoaded?: (local: Catalog) => void;
  /**
   * What a long-running process keeps between its builds (`skillpress dev`, `skillpress mcp
   * --skills`): skill folders that did not change since the session's last build are not read
   * again. Default: every skill is read.
   */
  session?: BuildSession;
}

/**
 * Kept by a process that builds the same catalog again and again, and passed to every
 * {@link build} as `session`: each build reads only the skill folders that changed since the last.
 *
 * @example
 * ```ts
 * import { build, BuildSession } from 'skillpress';
 * const session = new BuildSession();
 * await build({ skills: 'skills', out: 'dist', site: false, session });
 * const again = await build({ skills: 'skills', out: 'dist', site: false, session }); // reads what changed
 * console.log(again.reused.skills);
 * ```
 */
export class BuildSession {
  constructor() {
    loadsOf.set(this, new LoadMemo());
  }
}

/** Each session's loaded skills, by folder: kept out of the class's public surface. */
const loadsOf = new WeakMap<BuildSession, LoadMemo>();
/**
 * Each session's servers' tool lists (`mcp_servers`), asked on its first build and kept while the
 * servers' config is the same: a write through `skillpress mcp --skills` or a save under
 * `skillpress dev` would otherwise wait on every server again (a server that never answers: 15 s).
 */
const serversOf = new WeakMap<BuildSession, { key: string; listing: Promise<ServerListing> }>();
/** Each session's last output (`skillpress dev` alternates two): its feed files are linked where they come out the same. */
const lastOutOf = new WeakMap<BuildSession, string>();

/** Seconds each stage of a build took. */
export interface BuildStages {
  /** Reading and checking the skills (and peers' feeds). */
  load: number;
  /** The feeds, the discovery index, the archives and the search index. */
  feed: number;
  site?: number;
  /** Swapping the new output in and removing the old. */
  output: number;
  elasticsearch?: number;
  /** Asking the configured MCP servers for their tools. */
  tools?: number;
}

/** What the build took from earlier builds (`.cache/`) instead of making it again. */
export interface BuildReuse {
  /** Texts (files, long SKILL.md bodies) whose tokens were counted, or whose count was kept. */
  tokens: { counted: number; reused: number };
  /** Skills whose archives were made, or taken from the archive cache. */
  archives: FeedSummary['archives'];
  /** Skills whose stored files were moved from the output being replaced (feed-only builds), not written again. */
  fileFolders: number;
  /** Skills taken as the session's last build loaded them (their folders unchanged): `session` only. */
  skills: number;
}

/**
 * The Elasticsearch part of a build: the ingest's result, or why nothing was written (`skipped`:
 * the skills folder has errors, and an invalid skill would be deleted from the index) or the
 * ingest failed (`error`: the aliases still serve the previous catalog, and `ok` is false).
 */
/**
 * What the build's ingest did: the ingest's result (with the invalid skills it left out, as the
 * feed leaves them out), skipped (`strict` and an invalid skill), or the error that stopped it.
 */
export type BuildElasticsearch = (IngestResult & { notIngested?: string[] }) | { skipped: string } | { error: string };

/** What `build()` did. `skillpress build --json` prints the same, with snake_case names. */
export interface BuildResult {
  /** No skill has an error and the ingest, if any, did not fail. */
  ok: boolean;
  /** The output folder, absolute. */
  out: string;
  /** The skills folder built, as given; the `skill` of a local problem is a folder below it. */
  skillsRoot: string;
  /** The configuration file used (null: none was found, or the caller passed a config object; every default). */
  config: string | null;
  skills: number;
  files: number;
  /** Files listed in the feed with a reason instead of stored. */
  skippedFiles: number;
  /** Private and group skills left out of the public feed. */
  withheld: number;
  /** Disabled skills (`skills.disabled`, `metadata.enabled: false`): not published, in Elasticsearch with `is_enabled: false`. */
  disabled: number;
  imported: number;
  /** Imported skills shown on the site but not re-exported (`federation.reexport` is off). */
  importedNotExported: number;
  /** Skills with at least one error (left out), `nameClashes` included. */
  invalid: number;
  /**
   * Of `invalid`, the skills whose only error is a name clash with another folder's skill
   * (`name-unique`): valid, left out until `skills.precedence` or a rename settles the clash.
   */
  nameClashes: number;
  /** Skills committed in more than one folder with the same files: each is published once (`duplicate-copy`). */
  repeated: number;
  /** Skills found to duplicate another under a different name (identical content or near-identical text): reported, all published. */
  duplicates: number;
  changes: FeedSummary['changes'];
  /** Set when imported skills are shown on the site but not re-exported: the site's feed folder. */
  catalogDir?: string;
  /** Set when `elasticsearch` was given. */
  elasticsearch?: BuildElasticsearch;
  /** What the usage events (`analytics.source`) added up to, when there are any. */
  usage?: UsageReport;
  /** The site build: pages, and how many skills were rendered or came from the cache. */
  site?: SiteResult;
  reused: BuildReuse;
  stages: BuildStages;
  seconds: number;
  problems: Problem[];
  /** Set when the config lists `mcp_servers`: each server's state and the tools' statuses counted. */
  toolsCheck?: Pick<ToolsCheckReport, 'checked_at' | 'servers' | 'counts'>;
}

/** Where builds keep what later builds reuse: `.cache/` in `cwd`. Deleting it is always safe. */
const CACHE_DIR = '.cache';

/** What every stage of one build shares. */
interface BuildContext {
  config: SkillpressConfig;
  options: BuildOptions;
  out: string;
  log: (line: string) => void;
  tokens: TokenCounts;
  signer: Signer | undefined;
  stages: BuildStages;
  /** The cache folder this build uses (`.cache`, or a temporary one when that is a link). */
  cacheDir: string;
  versions?: VersionArchives;
  /** The folder of the config found (its repository's root): where stdio MCP servers start. */
  configRoot?: string;
}

interface Loaded {
  /** Local skills and peers' skills, with every problem. */
  catalog: Catalog;
  /** This registry's own skills (what Elasticsearch holds, as `skillpress ingest` writes it). */
  local: Catalog;
  duplicates: number;
  /** Earlier versions' archives, for the feed. */
  versions: VersionArchives;
  /** The local skills dated by their last commit. */
  datedByCommit: Set<string>;
}

interface Written {
  feed: FeedSummary;
  catalogView: FeedSummary | undefined;
  site: SiteResult | undefined;
}

/** Run one stage, adding its seconds to `stages[name]`. */
async function stage<T>(stages: BuildStages, name: keyof BuildStages, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    stages[name] = (stages[name] ?? 0) + (performance.now() - started) / 1000;
  }
}

/**
 * Build the output folder from a skills folder (and the peers the config names): the feed, the
 * discovery index, the archives, the site, and an Elasticsearch ingest when `elasticsearch` is
 * given. A failed build leaves the previous output untouched. Throws a {@link UsageError} for an
 * output folder that is not ours or a skills folder that is missing or empty; skills that break a
 * rule are reported in `problems` (and make `ok` false), never thrown.
 *
 * @example
 * ```ts
 * import { build } from 'skillpress';
 * const result = await build({ skills: 'skills', out: 'dist', site: false });
 * console.log(`${result.skills} skills, ${result.changes.added} added`, result.ok ? 'ok' : result.problems);
 * ```
 */
export async function build(options: BuildOptions = {}): Promise<BuildResult> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const { config, skillsRoot, configFile, configRoot } = await buildConfig(options, cwd, log);
  const skillsDir = path.resolve(cwd, skillsRoot);
  const out = path.resolve(cwd, options.out ?? 'dist');
  await checkOutDir(cwd, out, skillsDir);
  await removeStaleStaging(out, log);
  const cachePath = path.resolve(cwd, options.cacheDir ?? CACHE_DIR);
  const cache = openCacheRoot(cachePath, log);
  try {
    const tokens = await TokenCounts.open(path.join(cache.dir, 'tokens.json'), log);
    // The signing key never lives where the build publishes or where CI restores caches from.
    const keyFile = config.registry.signing_key && path.resolve(cwd, config.registry.signing_key);
    const placement = { forbidden: [out, path.join(cwd, CACHE_DIR), cachePath, cache.dir], log };
    const signer = loadSigner(keyFile, placement, { SKILLPRESS_SIGNING_KEY: options.signingKey });
    const stages: BuildStages = { load: 0, feed: 0, output: 0 };
    const ctx: BuildContext = { config, options, out, cacheDir: cache.dir, log, tokens, signer, stages, configRoot };
    return await buildWith({ cwd, skillsRoot, skillsDir, configFile }, ctx, started);
  } finally {
    cache.close();
  }
}

async function buildWith(
  where: { cwd: string; skillsRoot: string; skillsDir: string; configFile: string | null },
  ctx: BuildContext,
  started: number,
): Promise<BuildResult> {
  const { options, out, log, tokens, stages } = ctx;
  const { cwd, skillsRoot, skillsDir, configFile } = where;
  // Named as the user gave it: as typed (an option or the command's argument), or by the config's key that chose it.
  const given =
    options.skills !== undefined
      ? skillsRoot
      : `skills.root ${skillsRoot}${configFile ? ` (${path.relative(cwd, configFile) || configFile})` : ''}`;
  const loaded = await stage(stages, 'load', () =>
    loadSources(skillsDir, ctx, (local) => refuseMissing(local, given, skillsRoot, ctx.config)),
  );
  refuseEmpty(loaded.catalog, given);
  const { catalog, local, duplicates, versions, toolsCheck } = await checkToolsIfConfigured(
    markDisabled(loaded, ctx.config),
    ctx,
  );
  // A path in the config means the same wherever the build runs: it is read from the config's folder.
  const usage = await stage(stages, 'load', () => applyUsage(catalog, local, ctx.config, ctx.configRoot ?? cwd, log));
  const previous = await readPrevious(out, options.previous && resolveLocation(cwd, options.previous), log);
  keepUnchangedDates([...catalog.skills, ...local.skills], previous?.cards ?? [], loaded.datedByCommit);
  const { feed, catalogView, site } = await writeOutputs(catalog, previous, { ...ctx, versions });
  await tokens.save();
  const connection = options.elasticsearch;
  const elasticsearch = connection
    ? await stage(stages, 'elasticsearch', () => ingestElasticsearch(local, connection, options, log))
    : undefined;

  // Every pass's problems: the site's catalog view writes imported skills the feed leaves out.
  const problems = [
    ...new Map(
      [...catalog.problems, ...feed.problems, ...(catalogView?.problems ?? [])].map((p) => [JSON.stringify(p), p]),
    ).values(),
  ];
  const errors = problems.filter((p) => p.severity === 'error');
  return {
    ok: errors.length === 0 && !(elasticsearch && 'error' in elasticsearch),
    out,
    skillsRoot,
    config: configFile,
    skills: feed.skills,
    files: feed.files,
    skippedFiles: feed.skippedFiles,
    withheld: feed.withheld,
    disabled: feed.disabled,
    imported: catalogView?.imported ?? feed.imported,
    importedNotExported: feed.importedNotExported,
    invalid: new Set(errors.map((p) => p.skill)).size,
    nameClashes: clashedOnly(errors),
    repeated: catalog.problems.filter((p) => p.rule === 'duplicate-copy').length,
    duplicates,
    changes: feed.changes,
    ...(catalogView ? { catalogDir: path.join(out, ...CATALOG_PATH.split('/')) } : {}),
    ...(elasticsearch !== undefined ? { elasticsearch } : {}),
    ...(usage ? { usage } : {}),
    ...(site ? { site } : {}),
    ...(toolsCheck ? { toolsCheck } : {}),
    reused: {
      tokens: { counted: tokens.counted, reused: tokens.reused },
      archives: feed.archives,
      fileFolders: feed.keptFolders.length,
      skills: (options.session && loadsOf.get(options.session)?.reused) ?? 0,
    },
    stages,
    seconds: (Date.now() - started) / 1000,
    problems,
  };
}

/** The skills (folders) whose only errors are `name-unique`: valid skills another folder's skill outranks. */
function clashedOnly(errors: readonly Problem[]): number {
  const rules = new Map<string, Set<string>>();
  for (const p of errors) rules.set(p.skill, (rules.get(p.skill) ?? new Set()).add(p.rule));
  return [...rules.values()].filter((r) => r.size === 1 && r.has('name-unique')).length;
}

/**
 * Imported skills with `is_enabled` set too: the feed leaves disabled ones out. (The local ones
 * are marked as they load, by the step `skillpress ingest` shares.)
 */
function markDisabled(loaded: Loaded, config: SkillpressConfig): Loaded {
  const disabled = disabledNames(config.skills.disabled, config.bundles, loaded.catalog.skills);
  return { ...loaded, catalog: { ...loaded.catalog, skills: markEnabled(loaded.catalog.skills, disabled) } };
}

/** With `mcp_servers` configured: every skill's tools checked against them (`tools_status`). */
async function checkToolsIfConfigured(
  loaded: Loaded,
  ctx: BuildContext,
): Promise<Loaded & { toolsCheck?: BuildResult['toolsCheck'] }> {
  if (Object.keys(ctx.config.mcp_servers).length === 0) return loaded;
  const report = await stage(ctx.stages, 'tools', async () =>
    checkToolsAgainst(loaded.catalog.skills, await serverListing(ctx)),
  );
  for (const s of report.servers)
    ctx.log(
      `tools check: ${s.name} ${s.status === 'up' ? `up, ${s.tools} tools` : `unreachable (${unreachableReason(s)})`}`,
    );
  ctx.log(toolsCheckSummary(report));
  return {
    ...loaded,
    catalog: { ...loaded.catalog, skills: withToolsStatus(loaded.catalog.skills, report) },
    local: { ...loaded.local, skills: withToolsStatus(loaded.local.skills, report) },
    toolsCheck: { checked_at: report.checked_at, servers: report.servers, counts: report.counts },
  };
}

/** The check's counts in one line, the first missing tools named: a CI log says what the site's badges say. */
function toolsCheckSummary(report: ToolsCheckReport): string {
  const missing = report.skills.flatMap((s) =>
    s.tools
      .filter((t) => t.status === 'missing')
      .map((t) => `${s.id}: ${printable(t.raw)}${t.closest?.length ? `, closest: ${t.closest[0]}` : ''}`),
  );
  const named = missing.length > 3 ? [...missing.slice(0, 3), '…'] : missing;
  const n = report.counts;
  return `tools check: ${n.available} available, ${n.missing} missing${named.length ? ` (${named.join('; ')})` : ''}, ${n.server_unreachable} unreachable, ${n.not_checked} not checked (built-in, or no server in mcp_servers); skillpress check-tools lists each`;
}

/** What the configured servers list: asked now, or, within a session, on its first build. */
function serverListing(ctx: BuildContext): Promise<ServerListing> {
  const { config, configRoot, options } = ctx;
  if (!options.session) return askServers(config, configRoot);
  const key = JSON.stringify([config.mcp_servers, config.tools_check, configRoot]);
  const kept = serversOf.get(options.session);
  if (kept?.key === key) return kept.listing;
  const listing = askServers(config, configRoot);
  serversOf.set(options.session, { key, listing });
  return listing;
}

/** A folder resolved against `cwd`; a URL as it is. */
function resolveLocation(cwd: string, location: string): string {
  return /^https?:\/\//i.test(location) ? location : path.resolve(cwd, location);
}

/** The config (given, or found from the skills folder upwards: src/config/load.ts) and the skills folder; logs which. */
async function buildConfig(
  options: BuildOptions,
  cwd: string,
  log: (line: string) => void,
): Promise<{ config: SkillpressConfig; skillsRoot: string; configFile: string | null; configRoot?: string }> {
  if (typeof options.config === 'object') {
    const config = await resolveConfig(options.config);
    const configRoot = options.configRoot && path.resolve(cwd, options.configRoot);
    return { config, skillsRoot: options.skills ?? config.skills.root, configFile: null, configRoot };
  }
  const found = await findSkillsAndConfig({
    skills: options.skills && path.resolve(cwd, options.skills),
    config: options.config && path.resolve(cwd, options.config),
    cwd,
  });
  log(describeConfig(found, options.skills));
  return {
    config: found.config,
    skillsRoot: options.skills ?? found.skills,
    configFile: found.file ?? null,
    configRoot: configFolder(found),
  };
}

/** What `build --json` says of the usage events it read. */
export interface UsageReport {
  sources: string[];
  events: number;
  /** Lines that were not events (the first ones listed, with their line numbers). */
  skipped: UsageSummary['skipped'];
  /** Skills given figures. */
  skills: number;
  /** Events for skills this catalog does not have: counted, not published. */
  unknown: Record<string, number>;
  /** Failing skills, the lowest success rate first (at most 10). */
  updateCandidates: UsageSummary['update_candidates'];
}

/**
 * Reads `analytics.source` (if set) and gives this registry's skills their figures. Imported
 * skills keep their peer's (never merged with ours). A source that cannot be read stops the
 * build: a catalog published without its figures would say "never used" of every skill.
 */
async function applyUsage(
  catalog: Catalog,
  local: Catalog,
  config: SkillpressConfig,
  configRoot: string,
  log: (line: string) => void,
): Promise<UsageReport | undefined> {
  const { source, index, min_reports, min_reporters } = config.analytics;
  if (source === undefined) return undefined;
  const sources = (typeof source === 'string' ? [source] : source).map((s) => resolveLocation(configRoot, s));
  const { summarizeUsage } = await import('./usage/index.ts');
  const known = new Set(catalog.skills.map((s) => s.id));
  const summary = await summarizeUsage(sources, { known, index, minReports: min_reports, minReporters: min_reporters });
  let given = 0;
  // The site's catalog and Elasticsearch's (local) may hold separate objects of one skill.
  for (const skill of new Set([...catalog.skills, ...local.skills])) {
    const figures = summary.skills[skill.id];
    if (!figures || skill.registry !== config.registry.name) continue;
    // Per-version figures stay in the summary (usage.json); the feed publishes the totals.
    const total: Partial<typeof figures> = { ...figures };
    delete total.versions;
    skill.usage = { usage_version: USAGE_VERSION, registry: config.registry.name, ...(total as Figures) };
    if (skill.id in summary.skills && catalog.skills.includes(skill)) given++;
  }
  const unknown = Object.keys(summary.unknown).length;
  log(
    `usage: ${summary.events} event(s), figures for ${given} skill(s)` +
      (unknown ? `; ${unknown} skill(s) not in the catalog (not published)` : '') +
      (summary.skipped.count ? `; ${summary.skipped.count} line(s) skipped (first: ${describeSkipped(summary)})` : ''),
  );
  return {
    sources,
    events: summary.events,
    skipped: summary.skipped,
    skills: given,
    unknown: summary.unknown,
    updateCandidates: summary.update_candidates.slice(0, 10),
  };
}

function describeSkipped(summary: UsageSummary): string {
  const first = summary.skipped.lines[0];
  return first ? `${first.source}:${first.line}: ${first.reason}` : 'none listed';
}

/** Whether `out` holds a build's feed (a folder this build may replace, and take unchanged parts from). */
const hasFeed = (out: string): boolean => existsSync(path.join(out, FEED_PATH, 'index.json'));

/** The nearest folder from `out`'s parent up to `skillsRoot` that holds a SKILL.md, if any. */
function skillFolderAbove(out: string, skillsRoot: string): string | undefined {
  const root = path.resolve(skillsRoot);
  for (let dir = path.dirname(path.resolve(out)); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, SKILL_FILE))) return dir;
    if (dir === root || dir === path.dirname(dir)) return undefined;
  }
}

/** Refuse to replace a folder that is not ours: a non-empty folder without a previous build. */
async function checkOutDir(cwd: string, out: string, skillsRoot: string): Promise<void> {
  if (isInsideDir(cwd, out) || isInsideDir(skillsRoot, out)) {
    throw new UsageError(
      `--out ${out} would replace the current folder or the skills folder; choose a separate output folder`,
    );
  }
  // An output folder inside the skills folder (`dist/` of skills at a repository's top) is fine:
  // loading skips a build's output, so the next build does not take its copies for skills. Inside
  // a skill it would not be skipped: every file of a skill's folder is the skill's.
  const skill = isInsideDir(out, skillsRoot) ? skillFolderAbove(out, skillsRoot) : undefined;
  if (skill !== undefined)
    throw new UsageError(
      `--out ${out} is inside the skill folder ${skill}: the next build would publish its own output as that skill's files; choose an output folder outside it`,
    );
  const st = await stat(out).catch(() => undefined);
  if (!st) return;
  if (!st.isDirectory()) throw new UsageError(`--out ${out} exists and is not a folder`);
  const entries = await readdir(out);
  if (entries.length > 0 && !hasFeed(out)) {
    throw new UsageError(`--out ${out} is not empty and holds no previous skillpress build; refusing to replace it`);
  }
}

/** Local skills, then peers' skills; duplicates (identical content, near-identical text) are reported, never dropped. */
async function loadSources(
  skillsRoot: string,
  ctx: BuildContext,
  refuse: (local: Catalog) => Promise<void>,
): Promise<Loaded> {
  const { config, options, log } = ctx;
  const {
    catalog: loadedLocal,
    datedByCommit,
    versionFiles,
  } = await loadLocalCatalog(skillsRoot, config, {
    mode: options.strict ? 'strict' : 'lenient',
    sourceDateEpoch: options.sourceDateEpoch,
    tokens: ctx.tokens,
    log,
    ...(options.session ? { memo: loadsOf.get(options.session) } : {}),
  });
  options.onLoaded?.(loadedLocal);
  await refuse(loadedLocal); // before a peer is asked for anything
  const fetched = await federate(loadedLocal, config, {
    cacheDir: cacheFolder(ctx.cacheDir, ['federation'], log),
    log,
  });
  const { local, federated } = aggregatorOnly(loadedLocal, fetched, skillsRoot, config.federation.reexport, log);
  const threshold = config.duplicates.near_threshold;
  const duplicates = findDuplicates(federated.skills, {
    nearThreshold: threshold,
    tokenize: keptWords(cacheFolder(ctx.cacheDir, ['duplicates'], log), log),
  });
  const problems = [...federated.problems, ...duplicateProblems(duplicates, federated.skills, threshold)];
  return {
    catalog: { ...federated, problems },
    local,
    duplicates: duplicates.length,
    versions: { archives: config.versions.archives, files: versionFiles },
    datedByCommit,
  };
}

/**
 * A registry that only gathers its peers' skills (or skills registered by URL) has an empty
 * skills folder: that is not an error once the catalog holds skills from elsewhere. An empty
 * folder and nothing imported is still refused (refuseEmpty). Where its skills go is said: with
 * `federation.reexport` off, the peers' skills are not in its feed (docs/build-and-feed.md).
 */
function aggregatorOnly(
  local: Catalog,
  federated: Catalog,
  skillsRoot: string,
  reexport: boolean,
  log: (line: string) => void,
): { local: Catalog; federated: Catalog } {
  const empty = (p: Problem) => p.rule === 'no-skills';
  if (local.skills.length > 0 || federated.skills.length === 0 || !local.problems.some(empty))
    return { local, federated };
  const fromPeers = federated.skills.filter((s) => s.source.kind === 'peer').length;
  const byUrl = federated.skills.length - fromPeers;
  const folder = `skills: no SKILL.md in ${quotePath(skillsRoot)}`;
  if (reexport || fromPeers === 0)
    log(`${folder}; publishing the ${federated.skills.length} skill(s) from peers and skill URLs`);
  else
    log(
      `${folder}; federation.reexport is off, so the ${fromPeers} skill(s) from peers are in catalog/v1 and on the site only: ` +
        `feed/v1 and .well-known (what peers, the MCP server and install read) hold this registry's own skills, ` +
        `${byUrl === 0 ? 'none here' : `the ${byUrl} registered by URL`}. Set "reexport": true under federation to publish the peers' skills there too`,
    );
  return {
    local: { ...local, problems: local.problems.filter((p) => !empty(p)) },
    federated: { ...federated, problems: federated.problems.filter((p) => !empty(p)) },
  };
}

/**
 * The duplicate finder's words of a text, kept in `dir` between builds (they never hold a space:
 * a text's words are kept joined by one).
 */
function keptWords(dir: string, log: (line: string) => void): (text: string) => string[] {
  const cache = FileCache.open(dir, { log });
  cache.prune();
  const joined = keptText(cache, codeFingerprint(import.meta.url, ['./duplicates/tfidf.ts']), (text) =>
    tokenize(text).join(' '),
  );
  return (text) => {
    const words = joined(text);
    return words === '' ? [] : words.split(' ');
  };
}

/**
 * A skills folder that is not there (a typo, the wrong working directory) or holds no skill at
 * all must not replace a published catalog with an empty one: nothing is written.
 */
async function refuseMissing(
  catalog: Catalog,
  given: string,
  skillsRoot: string,
  config: SkillpressConfig,
): Promise<void> {
  const missing = catalog.problems.find((p) => p.rule === 'root-missing');
  if (!missing) return;
  const { peers, skill_urls } = config.federation;
  const hint =
    peers.length > 0 || skill_urls.length > 0
      ? ` (a registry that only imports keeps an empty skills folder: git keeps no empty folder, so commit a file such as ${path.posix.join(skillsRoot.split(path.sep).join('/'), '.gitkeep')})`
      : await skillsElsewhere(path.dirname(skillsRoot));
  throw new UsageError(`${given}: ${missing.message}; nothing was written${hint}`);
}

/** Where the skills are beside a missing skills folder (trailofbits/skills keeps them in plugins/), said as what to type. */
async function skillsElsewhere(dir: string): Promise<string> {
  const { folderHoldingSkills } = await import('./lib/skills-folder.ts');
  const found = await folderHoldingSkills(dir).catch(() => undefined);
  if (found === undefined) return '';
  const folder = found === '.' ? dir : path.join(dir, found);
  return ` (SKILL.md files are in ${quotePath(folder)}: skillpress build ${found}, or set skills.root to "${found}" in skillpress.json)`;
}

function refuseEmpty(catalog: Catalog, given: string): void {
  if (catalog.skills.length === 0) {
    // Errors say why best; with none, the warnings do (a skill below skills.max_depth is one).
    // A peer's or a skill URL's warnings (each naming it) say why nothing was imported: the refusal is all that prints.
    const remote = catalog.problems.filter((p) => /^(peer|url):/.test(p.skill));
    const own = catalog.problems.filter((p) => !remote.includes(p));
    const errors = own.filter((p) => p.severity === 'error');
    const why = [
      ...(errors.length > 0 ? errors.map((p) => p.message) : own.map((p) => `${p.skill}: ${p.message}`)).slice(0, 3),
      ...remote.slice(0, 3).map((p) => `[${p.rule}] ${p.message}`),
    ].join('; ');
    throw new InvalidInputError(
      `no skill to publish from ${given}${why ? ` (${why})` : ''}; the previous output, if any, is left as it is`,
    );
  }
}

/** The previous build for the change list: `--previous`, else whatever feed is in `out`. */
async function readPrevious(
  out: string,
  explicit: string | undefined,
  log: (line: string) => void,
): Promise<PreviousFeed | undefined> {
  const said = (previous: PreviousFeed | undefined): PreviousFeed | undefined => {
    for (const why of previous?.refused ?? []) log(`build: previous feed ${previous!.location}: refused ${why}`);
    return previous;
  };
  if (explicit) {
    const previous = await loadPreviousFeed(explicit);
    if (!previous) throw new UsageError(`--previous ${explicit}: no feed (cards.json) found there`);
    return said(previous);
  }
  return loadPreviousFeed(out).then(said, (err: Error) => {
    log(`build: ignoring the previous build in ${out}: ${err.message}`);
    return undefined;
  });
}

/** The published feed into `data`, and the site's catalog view beside it when the site shows skills the feed leaves out. */
async function writeFeeds(
  catalog: Catalog,
  previous: PreviousFeed | undefined,
  data: string,
  ctx: BuildContext,
): Promise<Pick<Written, 'feed' | 'catalogView'>> {
  const { config, options, out } = ctx;
  const lastOut = options.session && lastOutOf.get(options.session);
  const bar = options.progress ? progress('feed', catalog.skills.length) : undefined;
  const cacheDir = cacheFolder(ctx.cacheDir, ['feed'], ctx.log);
  const common = { outDir: data, config, sourceDateEpoch: options.sourceDateEpoch, tokens: ctx.tokens, cacheDir };
  const published = await writeFeed(catalog, {
    ...common,
    // Unchanged skills' file folders are moved from the output being replaced, right before
    // the swap (the site's file pages read them there meanwhile).
    ...(hasFeed(out) ? { previousOutDir: out } : {}),
    ...(lastOut && lastOut !== out && hasFeed(lastOut) ? { linkFrom: [lastOut] } : {}),
    log: ctx.log,
    previous,
    signer: ctx.signer,
    versions: ctx.versions,
    onProgress: (n) => bar?.update(n),
  });
  bar?.done();
  // The site shows imported skills even when they are not re-exported: give it its own view.
  if (published.importedNotExported === 0) return { feed: published, catalogView: undefined };
  const previousCatalog = await loadPreviousFeed(out, { feedPath: CATALOG_PATH }).catch(() => undefined);
  const catalogView = await writeFeed(catalog, {
    ...common,
    previous: previousCatalog,
    scope: 'catalog',
    signer: ctx.signer,
    log: ctx.log,
  });
  return { feed: published, catalogView };
}

/** Feed, the site's catalog view, and the site, assembled in a staging folder and swapped into `out`. */
async function writeOutputs(catalog: Catalog, previous: PreviousFeed | undefined, ctx: BuildContext): Promise<Written> {
  const { config, options, out } = ctx;
  const staging = await makeStaging(out);
  try {
    const data = path.join(staging, 'data');
    const { feed, catalogView } = await stage(ctx.stages, 'feed', () => writeFeeds(catalog, previous, data, ctx));
    const site = path.join(staging, 'site');
    const base = options.base ?? config.site.base;
    // Header rules that keep skill files inert, for static hosts that read `_headers` (moved into
    // the site with the feed): after the site stage only renames are left.
    await writeFile(path.join(data, '_headers'), headersFile(base));
    // Where the site expects to be served, for `skillpress preview` (moved into the site like _headers).
    await writeBuildRecord(data, { base: normalizeBase(base), site: options.site !== false });
    let siteResult: SiteResult | undefined;
    if (options.site !== false) {
      siteResult = await stage(ctx.stages, 'site', async () => {
        const { buildSite } = await import('./site/build-site.ts');
        const cacheDir = cacheFolder(ctx.cacheDir, ['site'], ctx.log);
        const previousOutDir = hasFeed(out) ? out : undefined;
        return buildSite({
          outDir: site,
          feedDir: catalogView?.feedDir ?? feed.feedDir,
          base,
          filesBaseUrl: config.site.files_base_url,
          command: config.site.command,
          cacheDir,
          log: ctx.log,
          ...(previousOutDir ? { previousOutDir } : {}),
          ...(feed.keptFolders.length > 0 && !catalogView
            ? { keptFeedFiles: { feedDir: path.join(out, ...FEED_PATH.split('/')), ids: feed.keptFolders } }
            : {}),
        });
      });
    }
    await stage(ctx.stages, 'output', async () => {
      await mkdir(site, { recursive: true });
      takeKeptFolders(feed, out);
      await swapIn(staging, data, site, out);
    });
    if (options.session) lastOutOf.set(options.session, out);
    return { feed, catalogView, site: siteResult };
  } finally {
    const removed = rm(staging, { recursive: true, force: true });
    // A process that builds again and again answers first and removes the output it replaced
    // meanwhile (a staging folder left by a process that ends is removed by the next build).
    if (ctx.options.session) removed.catch(() => {});
    else await stage(ctx.stages, 'output', () => removed);
  }
}

const stagingPrefix = (out: string): string => `.${path.basename(out)}.staging-`;

async function makeStaging(out: string): Promise<string> {
  await mkdir(path.dirname(out), { recursive: true });
  const staging = await mkdtemp(path.join(path.dirname(out), stagingPrefix(out)));
  await writeFile(path.join(staging, STAGING_MARK), JSON.stringify(processMark()));
  return staging;
}

/**
 * Remove the staging folders beside `out` that a killed build left: only folders that carry our
 * mark (never anything else of that name), and only when the build named in the mark ran on this
 * machine and is no longer running.
 */
async function removeStaleStaging(out: string, log: (line: string) => void): Promise<void> {
  const parent = path.dirname(out);
  for (const name of await readdir(parent).catch(() => [])) {
    if (!name.startsWith(stagingPrefix(out))) continue;
    const dir = path.join(parent, name);
    // Another build may be removing its own staging folder meanwhile.
    if (!(await lstat(dir).catch(() => undefined))?.isDirectory()) continue;
    const mark = await readFile(path.join(dir, STAGING_MARK), 'utf8').then(
      (t) => JSON.parse(t) as unknown,
      () => undefined,
    );
    if (!isMarkOfGoneProcess(mark)) continue;
    await rm(dir, { recursive: true, force: true });
    log(`build: removed ${dir}, left by a build that stopped before it finished`);
  }
}

/** Moves the feed folders beside the site, then the site into `out`, replacing what is there. */
async function swapIn(staging: string, data: string, site: string, out: string): Promise<void> {
  const trash = path.join(staging, 'trash');
  await mkdir(trash);
  await moveInto(data, site, { dir: trash, n: 0 });
  await replace(site, out, path.join(trash, 'previous'));
}

/**
 * Each entry of `from` into the folder `to`. Where both hold a folder of one name it goes on inside
 * it: the site's page about the feed (`feed/index.html`) and the redirect at `feed/v1/` stay
 * beside the feed's files. A file of the feed replaces one of the site of the same name (the
 * site writes none there: the feed's names end in `.json`, `.bin` or sit in its folders).
 */
async function moveInto(from: string, to: string, trash: { dir: string; n: number }): Promise<void> {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory() && (await lstat(target).catch(() => undefined))?.isDirectory())
      await moveInto(source, target, trash);
    else await replace(source, target, path.join(trash.dir, `site-${trash.n++}`));
  }
}

/** Move `from` to `to`, replacing what is there. */
async function replace(from: string, to: string, trash: string): Promise<void> {
  if (existsSync(to)) await rename(to, trash);
  await rename(from, to);
}

/**
 * The Elasticsearch ingest of the local skills; a failure is reported, not thrown. The index holds
 * what the feed publishes: the valid skills, with the invalid ones reported (the build already
 * lists their problems). `strict` keeps all or nothing: one invalid skill and nothing is written,
 * so the index keeps the previous catalog whole.
 */
async function ingestElasticsearch(
  local: Catalog,
  connection: ConnectionOptions,
  options: BuildOptions,
  log: (line: string) => void,
): Promise<BuildElasticsearch> {
  const invalid = invalidSkills(local);
  if (invalid.length > 0 && options.strict) {
    const skipped = `${invalid.length} invalid skill(s) and --strict; fix them (skillpress validate) and build again`;
    log(`elasticsearch: not ingested: ${skipped}`);
    return { skipped };
  }
  if (invalid.length > 0)
    log(
      `elasticsearch: ${invalid.length} invalid skill(s) left out, as the feed leaves them out: ${invalid.slice(0, 5).join(', ')}${invalid.length > 5 ? ', …' : ''}`,
    );
  // Loaded lazily: the Elasticsearch client is only needed when ingesting.
  const { ingestForBuild, indexNames } = await import('./emit/elasticsearch/index.ts');
  const prefix = options.indexPrefix ?? '';
  const names = indexNames();
  const result = await ingestForBuild(local, connection, log, {
    skills: prefix + names.skills,
    files: prefix + names.files,
  }).catch((err: Error) => {
    log(`elasticsearch: ${err.message}`);
    return { error: err.message };
  });
  return 'error' in result || invalid.length === 0 ? result : { ...result, notIngested: invalid };
}
