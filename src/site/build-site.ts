/**
 * Build the static catalog site into `outDir` from a written feed (`feedDir`, i.e. the
 * `feed/v1` folder), in four steps:
 *
 * 1. render every SKILL.md to HTML through a cache (src/site/render-bodies.ts), so a rebuild
 *    renders only what changed;
 * 2. Astro, run programmatically with this package's `src/site/pages`, bundles the site's code;
 * 3. the pages of unchanged skills (their page and every file's page) are put in place from a
 *    cache (src/site/page-cache.ts); Astro renders the others and the catalog's own pages, which
 *    read the feed and the rendered bodies through a Vite virtual module (src/site/site-data.ts);
 * 4. each file of each rendered skill gets a page of its own (src/site/file-views.ts).
 *
 * In the browser the pages fetch `<base>feed/v1/…` (search index, cards), which
 * `skillpress build` copies beside the site.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import type { AstroInlineConfig } from 'astro';
import { InvalidInputError } from '../lib/errors.ts';
import { FileCache } from '../lib/file-cache.ts';
import { cacheFolder, openCacheRoot } from '../lib/cache-dir.ts';
import { sha256Hex } from '../lib/hash.ts';
import { FEED_PATH } from '../lib/layout.ts';
import { isInsideDir } from '../lib/fs.ts';
import { browseLabel, catalogFacets } from './catalog.ts';
import { readCards, readIndex, readSkills } from './feed-data.ts';
import { writeFileViews } from './file-views.ts';
import {
  filePageKey,
  pageKeyBase,
  placeKeptPages,
  siteSources,
  skillPageKey,
  takeFolders,
  type PagePlan,
} from './page-cache.ts';
import { renderBodies } from './render-bodies.ts';
import { siteModelMatches, takeSiteModel, writeSiteModel } from '../semantic/site-model.ts';
import { astroConfig, PROJECT_ROOT } from './astro-config.ts';
import { renderPlans, type RenderPlan, type SiteData } from './site-data.ts';
import { siteUrls } from './urls.ts';

export interface BuildSiteOptions {
  outDir: string;
  feedDir: string;
  /** Base path the site is served under, e.g. `/` or `/skills/`. */
  base: string;
  /**
   * Where the feed will be below the published site. Default: the feed folder's last two
   * segments when they are `feed/v1` or `catalog/v1`, else `feed/v1`.
   */
  feedPath?: string;
  /** `site.files_base_url`: skill files are linked there instead of below the site. */
  filesBaseUrl?: string;
  /** `site.command`: how the snippets run skillpress (default `skillpress`). */
  command?: string;
  /**
   * The built site that `outDir` will replace (`skillpress build`'s output folder): the folders of
   * unchanged skills whose pages check out are moved from it into `outDir` at the end, instead of
   * made again (src/site/page-cache.ts). The caller swaps `outDir` in for it right after.
   */
  previousOutDir?: string;
  /**
   * Skills whose stored files are still in the output being replaced, in its feed folder
   * `feedDir` (the build moves them into the new feed once the site is built, `takeKeptFolders`):
   * their file pages read them there.
   */
  keptFeedFiles?: { feedDir: string; ids: readonly string[] };
  /**
   * Rendered SKILL.md kept between builds (default `.cache/site` in the working directory).
   * Deleting it is always safe.
   */
  cacheDir?: string;
  /** Warnings about the cache (entries refused and made again), one line each. */
  log?: (line: string) => void;
}

/** What the site build did, for the build's summary. */
export interface SiteResult {
  skills: number;
  /** Skills whose SKILL.md was rendered in this build; the others came from the cache. */
  rendered: number;
  cached: number;
  pages: number;
  /** File views (one page per file of a skill). */
  filePages: number;
  /**
   * Skill pages rendered by Astro, and skill pages of unchanged skills taken from the cache; of
   * those, how many skills' folders (page and file pages) were moved from the site being replaced.
   */
  skillPages: { rendered: number; reused: number; moved: number };
  /** File pages filled in, and file pages of unchanged skills taken from the cache. */
  fileViews: { written: number; reused: number };
  seconds: number;
}

/** The fields of `fields` that are set (the page cache key and the pages' data leave the others out). */
function definedOnly<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function runtimeFeedPath(feedDir: string, explicit?: string): string {
  if (explicit) return explicit.replace(/^\/+|\/+$/g, '');
  const tail = feedDir.split(path.sep).slice(-2).join('/');
  return /^(feed|catalog)\/v\d+$/.test(tail) ? tail : FEED_PATH;
}

/**
 * Build the static catalog site (Astro, loaded on first call) from a feed already written by
 * {@link writeFeed}: a page per skill and per file, and the search, into `outDir` (emptied first).
 *
 * @example
 * ```ts
 * import { buildSite } from 'skillpress';
 * const site = await buildSite({ outDir: 'site', feedDir: 'dist/feed/v1', base: '/' });
 * console.log(`${site.pages} pages, ${site.rendered} skills rendered in ${site.seconds} s`);
 * ```
 */
export async function buildSite(opts: BuildSiteOptions): Promise<SiteResult> {
  const started = Date.now();
  const feedDir = requireFeed(path.resolve(opts.feedDir));
  const log = opts.log ?? (() => {});
  const { dir: cacheDir, close: closeCache } = siteCacheDir(opts.cacheDir, log);
  const feedPath = runtimeFeedPath(feedDir, opts.feedPath);
  const urls = siteUrls(opts.base, { feedPath, filesBaseUrl: opts.filesBaseUrl });
  // Each skill's JSON is read here once, for the bodies, the kept pages' keys and the file pages.
  const cards = readCards(feedDir);
  const skills = readSkills(feedDir, cards);
  const { bodies, rendered, reused } = renderBodies(skills, urls, path.join(cacheDir, 'skill-html'), log);

  const served = {
    base: urls.base,
    feedPath,
    ...definedOnly({ filesBaseUrl: opts.filesBaseUrl, command: opts.command }),
  };
  const data: SiteData = {
    feedDir,
    ...served,
    bodies: Object.fromEntries(Object.entries(bodies).map(([id, b]) => [id, b.file])),
    marker: `sp${randomBytes(12).toString('hex')}`,
  };
  await removeAbandonedBuilds(cacheDir);
  const work = await mkdtemp(path.join(cacheDir, 'build-'));
  const dist = path.join(work, 'dist');
  const siteDir = path.join(work, 'site');
  const cache = FileCache.open(path.join(cacheDir, 'pages'), { log });
  let plan: PagePlan | undefined;
  let keyBase = '';
  // Once Astro has bundled the site's code (the assets' names are known), before it renders.
  const placeKept = async (): Promise<void> => {
    // Skill pages show the registry and the bundles their skill is in, link their folder's page,
    // and every page's navigation names the browse page after the facets: a change to any of
    // them renders the pages again.
    const feedIndex = readIndex(feedDir);
    const facets = catalogFacets(cards);
    keyBase = pageKeyBase(siteSources(PROJECT_ROOT), dist, served, {
      registry: feedIndex.registry,
      bundles: feedIndex.bundles ?? [],
      browse: browseLabel(facets) ?? null,
      folders: facets.folders.map((f) => f.value),
    });
    plan = placeKeptPages({
      skills,
      siteDir,
      urls,
      cache,
      keyBase,
      bodies,
      ...(opts.previousOutDir ? { previousDir: opts.previousOutDir } : {}),
    });
    renderPlans().set(data.marker, plan);
  };
  try {
    const pages = await runAstro(dist, path.join(work, 'vite'), data, placeKept);
    if (!plan) throw new Error('site: Astro rendered the pages before the kept ones were placed');
    await mergeRendered(dist, siteDir, plan, (id, file) =>
      cache.adopt(
        skillPageKey(keyBase, skills.get(id)!.sha256, bodies[id]!.sha256),
        file,
        sha256Hex(readFileSync(file)),
      ),
    );
    const key = (id: string, filePath: string): string => filePageKey(keyBase, skills.get(id)!.sha256, filePath);
    const kept = opts.keptFeedFiles && { feedDir: opts.keptFeedFiles.feedDir, ids: new Set(opts.keptFeedFiles.ids) };
    const written = await writeFileViews(
      [...plan.templates].map((id) => skills.get(id)!.skill),
      { templatesDir: dist, siteDir, feedDir, urls, marker: data.marker, cache, key, ...(kept ? { kept } : {}) },
    );
    cache.prune();
    await moveIntoPlace(siteDir, plan, opts);
    return siteResult(plan, { skills: skills.size, rendered, cached: reused, astroPages: pages, written, started });
  } finally {
    renderPlans().delete(data.marker);
    await rm(work, { recursive: true, force: true });
    closeCache();
  }
}

/** What the site build did, from its plan and counts. */
function siteResult(
  plan: PagePlan,
  n: { skills: number; rendered: number; cached: number; astroPages: number; written: number; started: number },
): SiteResult {
  return {
    skills: n.skills,
    rendered: n.rendered,
    cached: n.cached,
    // Astro's count includes the file pages' templates, which are not pages of the site.
    pages: n.astroPages - plan.templates.size + plan.reusedPages + n.written + plan.reusedFiles,
    filePages: n.written + plan.reusedFiles,
    skillPages: { rendered: plan.skills.size, reused: plan.reusedPages, moved: plan.folders.size },
    fileViews: { written: n.written, reused: plan.reusedFiles },
    seconds: (Date.now() - n.started) / 1000,
  };
}

/**
 * The assembled site into `outDir`, then what it takes from the site being replaced: the folders
 * of unchanged skills and the model's files (the same for every build), when they check out.
 * Run last: until then the site being replaced stays whole.
 */
async function moveIntoPlace(siteDir: string, plan: PagePlan, opts: BuildSiteOptions): Promise<void> {
  const outDir = path.resolve(opts.outDir);
  const previous = opts.previousOutDir;
  const keptModel = previous !== undefined && siteModelMatches(previous);
  if (!keptModel) writeSiteModel(siteDir);
  await moveDir(siteDir, outDir);
  if (previous) takeFolders(plan, previous, outDir);
  if (keptModel) takeSiteModel(previous, outDir);
}

/**
 * Astro's pages into the site being assembled (which holds the kept ones): the catalog's own
 * pages and folders as they are, and each rendered skill page into its skill's folder, where
 * `keep` keeps it for later builds. The file pages' templates stay behind.
 */
async function mergeRendered(
  dist: string,
  siteDir: string,
  plan: RenderPlan,
  keep: (id: string, file: string) => void,
): Promise<void> {
  // Empty when every skill's folder is taken from the site being replaced.
  await mkdir(siteDir, { recursive: true });
  for (const entry of await readdir(dist)) {
    if (entry !== 'skills') await rename(path.join(dist, entry), path.join(siteDir, entry));
  }
  // `skills/` itself: the redirect to the catalog's list.
  await mkdir(path.join(siteDir, 'skills'), { recursive: true });
  await rename(path.join(dist, 'skills', 'index.html'), path.join(siteDir, 'skills', 'index.html'));
  for (const id of plan.skills) {
    const page = path.join(siteDir, 'skills', id, 'index.html');
    await mkdir(path.dirname(page), { recursive: true });
    await rename(path.join(dist, 'skills', id, 'index.html'), page);
    keep(id, page);
  }
}

/**
 * Astro's build of `src/site/pages` into `outDir`; returns how many pages it wrote. `beforePages`
 * runs once the site's code is bundled, before any page is rendered.
 */
async function runAstro(
  outDir: string,
  viteCacheDir: string,
  data: SiteData,
  beforePages: () => Promise<void>,
): Promise<number> {
  let pages = 0;
  const { build } = await import('astro');
  const shared = astroConfig(data, viteCacheDir, [
    // A `buildApp` hook ordered `post` runs once every environment is bundled; Astro renders
    // the pages in one of its own, which comes after this plugin's (Astro's is `enforce: post`).
    { name: 'skillpress-before-pages', buildApp: { order: 'post', handler: beforePages } },
  ]);
  const config: AstroInlineConfig = {
    ...shared,
    outDir,
    vite: {
      ...shared.vite,
      // The prerender bundle is written below outDir and run from there: bundle astro's
      // runtime into it, so it needs no node_modules wherever the working directory is.
      environments: { prerender: { resolve: { noExternal: true } } },
      // That bundle runs at build time only, and highlighting grammars are chunks loaded on
      // demand: large chunks are expected, not a warning.
      build: { chunkSizeWarningLimit: 8192 },
    },
    integrations: [
      {
        name: 'skillpress-page-count',
        hooks: { 'astro:build:done': ({ pages: built }) => void (pages = built.length) },
      },
    ],
  };
  // `sync: false`: no type generation (the pages use no content collections), which would also
  // write `.astro/` into this package's folder on every build. An option of Astro's builder that
  // the JavaScript API passes through but does not type.
  const leave = enterFolderOf(outDir);
  try {
    await build(config, { sync: false } as Parameters<typeof build>[1]);
  } finally {
    leave();
  }
  return pages;
}

/**
 * Astro writes its prerender bundle into `.astro/` of the working directory when `outDir` is not
 * below it, as when the cache is a temporary folder (`.cache` read-only or a link): a read-only
 * working directory failed the build. There, Astro runs from `outDir`'s folder (the build's work
 * folder, removed after). Returns the way back. Worker threads cannot change folder; they keep theirs.
 */
function enterFolderOf(outDir: string): () => void {
  const cwd = process.cwd();
  if (isInsideDir(outDir, cwd) || !isMainThread) return () => {};
  process.chdir(path.dirname(outDir));
  return () => process.chdir(cwd);
}

/** `feedDir` when it holds a written feed (index.json and cards.json). */
function requireFeed(feedDir: string): string {
  for (const part of ['index.json', 'cards.json']) {
    if (!existsSync(path.join(feedDir, part)))
      throw new InvalidInputError(`site: ${path.join(feedDir, part)} is missing; build the feed first`);
  }
  return feedDir;
}

/**
 * The site's cache folder, a real one: the default `.cache/site` checked from `.cache` down (a
 * link there is never followed; `.cache` itself a link means a temporary folder), a given one
 * checked itself.
 */
function siteCacheDir(given: string | undefined, log: (line: string) => void): { dir: string; close(): void } {
  if (given !== undefined) {
    const dir = cacheFolder(path.dirname(path.resolve(given)), [path.basename(path.resolve(given))], log);
    return { dir, close: () => {} };
  }
  const root = openCacheRoot('.cache', log);
  return { dir: cacheFolder(root.dir, ['site'], log), close: root.close };
}

/** A day-old `build-*` folder belongs to a build that was killed (a running one is minutes old). */
async function removeAbandonedBuilds(cacheDir: string): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  for (const name of await readdir(cacheDir)) {
    const dir = path.join(cacheDir, name);
    const st = name.startsWith('build-') ? await stat(dir).catch(() => undefined) : undefined;
    if (st && Date.now() - st.mtimeMs > 24 * 3600 * 1000) await rm(dir, { recursive: true, force: true });
  }
}

/** Rename, or copy and delete when `to` is on another file system. */
async function moveDir(from: string, to: string): Promise<void> {
  await rm(to, { recursive: true, force: true });
  await mkdir(path.dirname(to), { recursive: true });
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await cp(from, to, { recursive: true });
  }
}
