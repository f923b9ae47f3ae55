/**
 * `build()`: skills/ (+ peers) → the output folder: the feed, the discovery index, archives, the
 * site, and Elasticsearch when ELASTICSEARCH_URL is set. `skillpress build` is this call plus
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
import { loadCatalog } from './load/index.ts';
import { federate } from './federate/index.ts';
import { duplicateProblems, findDuplicates } from './duplicates/index.ts';
import { tokenize } from './duplicates/tfidf.ts';
import { loadPreviousFeed, writeFeed, type FeedSummary, type PreviousFeed } from './emit/feed/index.ts';
import { CATALOG_PATH, FEED_PATH } from './lib/layout.ts';
import type { Catalog, Problem } from './model/skill.ts';
import type { SkillpressConfig } from './model/config.ts';
import { progress } from './lib/progress.ts';
import { InvalidInputError, UsageError } from './lib/errors.ts';
import { isInsideDir, isMarkOfGoneProcess, processMark } from './lib/fs.ts';
import { TokenCounts } from './lib/token-counts.ts';
import { FileCache, keptText } from './lib/file-cache.ts';
import { codeFingerprint } from './lib/fingerprint.ts';
import { loadConfig, skillsLoadOptions, sourceDateEpoch } from './config/load.ts';
import { headersFile } from './serve/headers.ts';
import { attachHistories } from './author/publish.ts';
import type { VersionArchives } from './emit/feed/versions.ts';
import type { SiteResult } from './site/build-site.ts';

/** Named like the flags of `skillpress build`. */
export interface BuildOptions {
  /** Skills folder (default: `skills.root` of the config, `skills/`). */
  skills?: string;
  /** Output folder (default `dist`). */
  out?: string;
  /** Config folder holding `skillpress.json` (default `config`), or a parsed config. */
  config?: string | SkillpressConfig;
  /** A previous build (folder or URL) for the change list; default: what is in `out`. */
  previous?: string;
  /** Base path the site is served under (default: `site.base` of the config). */
  base?: string;
  /** Apply every rule of the specification as an error. */
  strict?: boolean;
  /** Build the site (default true). */
  site?: boolean;
  /** Progress and notes, one line each (default: none). */
  log?: (line: string) => void;
  /** Show progress bars on an interactive terminal (default false). */
  progress?: boolean;
  /** Ingest into Elasticsearch when ELASTICSEARCH_URL is set (default true; `skillpress dev` never does). */
  elasticsearch?: boolean;
  /** Called with this registry's own skills once loaded (the MCP server's duplicate check keeps them). */
  onLoaded?: (local: Catalog) => void;
}

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
}

/** What the build took from earlier builds (`.cache/`) instead of making it again. */
export interface BuildReuse {
  /** Texts (files, long SKILL.md bodies) whose tokens were counted, or whose count was kept. */
  tokens: { counted: number; reused: number };
  /** Skills whose archives were made, or taken from the archive cache. */
  archives: FeedSummary['archives'];
}

/** What `skillpress build --json` prints. */
export interface BuildResult {
  ok: boolean;
  out: string;
  /** The skills folder built; the `skill` of a local problem is a folder below it. */
  skills_root: string;
  skills: number;
  files: number;
  skipped_files: number;
  withheld: number;
  imported: number;
  imported_not_exported: number;
  invalid: number;
  /** Skills committed in more than one folder with the same files: each is published once (`duplicate-copy`). */
  repeated: number;
  /** Skills found to duplicate another under a different name (identical content or near-identical text): reported, all published. */
  duplicates: number;
  changes: FeedSummary['changes'];
  /** Set when imported skills are shown on the site but not re-exported: the site's feed folder. */
  catalog_dir?: string;
  elasticsearch?: unknown;
  /** The site build: pages, and how many skills were rendered or came from the cache. */
  site?: SiteResult;
  reused: BuildReuse;
  stages: BuildStages;
  seconds: number;
  problems: Problem[];
}

/** Where builds keep what later builds reuse: `.cache/` in the working directory. Deleting it is always safe. */
const CACHE_DIR = '.cache';

/** What every stage of one build shares. */
interface BuildContext {
  config: SkillpressConfig;
  options: BuildOptions;
  out: string;
  log: (line: string) => void;
  tokens: TokenCounts;
  stages: BuildStages;
  versions?: VersionArchives;
}

interface Loaded {
  /** Local skills and peers' skills, with every problem. */
  catalog: Catalog;
  /** This registry's own skills (what Elasticsearch holds, as `skillpress ingest` writes it). */
  local: Catalog;
  duplicates: number;
  /** Earlier versions' archives, for the feed. */
  versions: VersionArchives;
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

export async function build(options: BuildOptions = {}): Promise<BuildResult> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const config = typeof options.config === 'object' ? options.config : await loadConfig(options.config);
  const skillsRoot = options.skills ?? config.skills.root;
  const out = path.resolve(options.out ?? 'dist');
  await checkOutDir(out, skillsRoot);
  await removeStaleStaging(out, log);
  const tokens = await TokenCounts.open(path.resolve(CACHE_DIR, 'tokens.json'), log);
  const ctx: BuildContext = { config, options, out, log, tokens, stages: { load: 0, feed: 0, output: 0 } };

  const { catalog, local, duplicates, versions } = await stage(ctx.stages, 'load', () => loadSources(skillsRoot, ctx));
  refuseEmpty(catalog, skillsRoot);
  const previous = await readPrevious(out, options.previous, log);
  const { feed, catalogView, site } = await writeOutputs(catalog, previous, { ...ctx, versions });
  await tokens.save();
  const elasticsearch =
    options.elasticsearch === false
      ? undefined
      : await stage(ctx.stages, 'elasticsearch', () => ingestElasticsearch(local, log));

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
    skills_root: skillsRoot,
    skills: feed.skills,
    files: feed.files,
    skipped_files: feed.skippedFiles,
    withheld: feed.withheld,
    imported: catalogView?.imported ?? feed.imported,
    imported_not_exported: feed.importedNotExported,
    invalid: new Set(errors.map((p) => p.skill)).size,
    repeated: catalog.problems.filter((p) => p.rule === 'duplicate-copy').length,
    duplicates,
    changes: feed.changes,
    ...(catalogView ? { catalog_dir: path.join(out, ...CATALOG_PATH.split('/')) } : {}),
    ...(elasticsearch !== undefined ? { elasticsearch } : {}),
    ...(site ? { site } : {}),
    reused: { tokens: { counted: tokens.counted, reused: tokens.reused }, archives: feed.archives },
    stages: ctx.stages,
    seconds: (Date.now() - started) / 1000,
    problems,
  };
}

/** Refuse to replace a folder that is not ours: a non-empty folder without a previous build. */
async function checkOutDir(out: string, skillsRoot: string): Promise<void> {
  if (isInsideDir(process.cwd(), out) || isInsideDir(skillsRoot, out)) {
    throw new UsageError(
      `--out ${out} would replace the current folder or the skills folder; choose a separate output folder`,
    );
  }
  if (isInsideDir(out, skillsRoot)) {
    throw new UsageError(
      `--out ${out} is inside the skills folder ${path.resolve(skillsRoot)}: the next build would load its own output as skills; choose an output folder outside it`,
    );
  }
  const st = await stat(out).catch(() => undefined);
  if (!st) return;
  if (!st.isDirectory()) throw new UsageError(`--out ${out} exists and is not a folder`);
  const entries = await readdir(out);
  if (entries.length > 0 && !existsSync(path.join(out, FEED_PATH, 'index.json'))) {
    throw new UsageError(`--out ${out} is not empty and holds no previous skillpress build; refusing to replace it`);
  }
}

/** Local skills, then peers' skills; duplicates (identical content, near-identical text) are reported, never dropped. */
async function loadSources(skillsRoot: string, ctx: BuildContext): Promise<Loaded> {
  const { config, options, log } = ctx;
  const local = await loadCatalog(skillsRoot, {
    ...skillsLoadOptions(config),
    mode: options.strict ? 'strict' : 'lenient',
    registry: config.registry.name,
    sourceDateEpoch: sourceDateEpoch(),
    tokens: ctx.tokens,
  });
  options.onLoaded?.(local);
  const versionFiles = await attachHistories(local.skills, skillsRoot, config.registry.name);
  const federated = await federate(local, config, { cacheDir: path.resolve(CACHE_DIR, 'federation'), log });
  const threshold = config.duplicates.near_threshold;
  const duplicates = findDuplicates(federated.skills, {
    nearThreshold: threshold,
    tokenize: keptWords(path.resolve(CACHE_DIR, 'duplicates')),
  });
  const problems = [...federated.problems, ...duplicateProblems(duplicates, federated.skills, threshold)];
  return {
    catalog: { ...federated, problems },
    local,
    duplicates: duplicates.length,
    versions: { archives: config.versions.archives, files: versionFiles },
  };
}

/**
 * The duplicate finder's words of a text, kept in `dir` between builds (they never hold a space:
 * a text's words are kept joined by one).
 */
function keptWords(dir: string): (text: string) => string[] {
  const cache = FileCache.open(dir);
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
function refuseEmpty(catalog: Catalog, skillsRoot: string): void {
  const missing = catalog.problems.find((p) => p.rule === 'root-missing');
  if (missing) throw new UsageError(`--skills ${skillsRoot}: ${missing.message}; nothing was written`);
  if (catalog.skills.length === 0) {
    const why = catalog.problems
      .filter((p) => p.severity === 'error')
      .map((p) => p.message)
      .slice(0, 3)
      .join('; ');
    throw new InvalidInputError(
      `no skill to publish from ${skillsRoot}${why ? ` (${why})` : ''}; the previous output, if any, is left as it is`,
    );
  }
}

/** The previous build for the change list: `--previous`, else whatever feed is in `out`. */
async function readPrevious(
  out: string,
  explicit: string | undefined,
  log: (line: string) => void,
): Promise<PreviousFeed | undefined> {
  if (explicit) {
    const previous = await loadPreviousFeed(explicit);
    if (!previous) throw new UsageError(`--previous ${explicit}: no feed (cards.json) found there`);
    return previous;
  }
  return loadPreviousFeed(out).catch((err: Error) => {
    log(`build: ignoring the previous build in ${out}: ${err.message}`);
    return undefined;
  });
}

/** Feed, the site's catalog view, and the site, assembled in a staging folder and swapped into `out`. */
async function writeOutputs(catalog: Catalog, previous: PreviousFeed | undefined, ctx: BuildContext): Promise<Written> {
  const { config, options, out } = ctx;
  const epoch = sourceDateEpoch();
  const staging = await makeStaging(out);
  try {
    const data = path.join(staging, 'data');
    const { feed, catalogView } = await stage(ctx.stages, 'feed', async () => {
      const bar = options.progress ? progress('feed', catalog.skills.length) : undefined;
      const cacheDir = path.resolve(CACHE_DIR, 'feed');
      const published = await writeFeed(catalog, {
        outDir: data,
        config,
        previous,
        sourceDateEpoch: epoch,
        tokens: ctx.tokens,
        cacheDir,
        versions: ctx.versions,
        onProgress: (n) => bar?.update(n),
      });
      bar?.done();
      // The site shows imported skills even when they are not re-exported: give it its own view.
      if (published.importedNotExported === 0) return { feed: published, catalogView: undefined };
      const previousCatalog = await loadPreviousFeed(out, { feedPath: CATALOG_PATH }).catch(() => undefined);
      return {
        feed: published,
        catalogView: await writeFeed(catalog, {
          outDir: data,
          config,
          previous: previousCatalog,
          sourceDateEpoch: epoch,
          scope: 'catalog',
          tokens: ctx.tokens,
          cacheDir,
        }),
      };
    });
    const site = path.join(staging, 'site');
    const base = options.base ?? config.site.base;
    // Header rules that keep skill files inert, for static hosts that read `_headers` (moved into
    // the site with the feed): after the site stage only renames are left.
    await writeFile(path.join(data, '_headers'), headersFile(base));
    let siteResult: SiteResult | undefined;
    if (options.site !== false) {
      siteResult = await stage(ctx.stages, 'site', async () => {
        const { buildSite } = await import('./site/build-site.ts');
        const cacheDir = path.resolve(CACHE_DIR, 'site');
        const previousOutDir = existsSync(path.join(out, FEED_PATH, 'index.json')) ? out : undefined;
        return buildSite({
          outDir: site,
          feedDir: catalogView?.feedDir ?? feed.feedDir,
          base,
          filesBaseUrl: config.site.files_base_url,
          cacheDir,
          ...(previousOutDir ? { previousOutDir } : {}),
        });
      });
    }
    await stage(ctx.stages, 'output', async () => {
      await mkdir(site, { recursive: true });
      await swapIn(staging, data, site, out);
    });
    return { feed, catalogView, site: siteResult };
  } finally {
    await stage(ctx.stages, 'output', () => rm(staging, { recursive: true, force: true }));
  }
}

/** The mark in a staging folder: which build made it. */
const STAGING_MARK = '.skillpress-staging.json';
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
  for (const entry of await readdir(data))
    await replace(path.join(data, entry), path.join(site, entry), path.join(trash, `site-${entry}`));
  await replace(site, out, path.join(trash, 'previous'));
}

/** Move `from` to `to`, replacing what is there. */
async function replace(from: string, to: string, trash: string): Promise<void> {
  if (existsSync(to)) await rename(to, trash);
  await rename(from, to);
}

/** Elasticsearch ingest when ELASTICSEARCH_URL is set; otherwise one line saying it was skipped. */
async function ingestElasticsearch(local: Catalog, log: (line: string) => void): Promise<object | undefined> {
  if (!process.env.ELASTICSEARCH_URL) {
    log('elasticsearch: skipped (set ELASTICSEARCH_URL to ingest into agent_skills and agent_skill_files)');
    return undefined;
  }
  // As `skillpress ingest`: an invalid skill would be deleted from the index, so nothing is written.
  const errors = local.problems.filter((p) => p.severity === 'error').length;
  if (errors > 0) {
    const skipped = `${errors} error(s) in the skills folder; fix them (skillpress validate) and build again`;
    log(`elasticsearch: not ingested: ${skipped}`);
    return { skipped };
  }
  // Loaded lazily: the Elasticsearch client is only needed when ingesting.
  const { ingestIfConfigured } = await import('./emit/elasticsearch/index.ts');
  return ingestIfConfigured(local, log).catch((err: Error) => {
    log(`elasticsearch: ${err.message}`);
    return { error: err.message };
  });
}
