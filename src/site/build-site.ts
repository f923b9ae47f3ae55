/**
 * Build the static catalog site into `outDir` from a written feed (`feedDir`, i.e. the
 * `feed/v1` folder), in three steps:
 *
 * 1. render every SKILL.md to HTML through the render cache (src/site/render-bodies.ts), so a
 *    rebuild renders only what changed;
 * 2. Astro, run programmatically with this package's `src/pages`, builds the pages; they read
 *    the feed and the rendered bodies through a Vite virtual module (src/site/site-data.ts);
 * 3. each file of each skill gets a page of its own (src/site/file-views.ts).
 *
 * In the browser the pages fetch `<base>feed/v1/…` (search index, cards), which
 * `skillpress build` copies beside the site.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroInlineConfig } from 'astro';
import { InvalidInputError } from '../lib/errors.ts';
import { FileCache } from '../lib/file-cache.ts';
import { atomicWrite } from '../lib/fs.ts';
import { AstroPageCache } from './astro-cache.ts';
import { readCards } from './feed-data.ts';
import { writeFileViews, type FileViewContext } from './file-views.ts';
import { renderBodies } from './render-bodies.ts';
import { siteBuilds, siteDataPlugin, type SiteBuild, type SiteData } from './site-data.ts';
import { normalizeBase, siteUrls } from './urls.ts';

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
  /**
   * Rendered SKILL.md kept between builds (default `.cache/site` in the working directory).
   * Deleting it is always safe.
   */
  cacheDir?: string;
}

/** What the site build did, for the build's summary. */
export interface SiteResult {
  skills: number;
  /** Skills whose SKILL.md was rendered in this build; the others came from the cache. */
  rendered: number;
  cached: number;
  pages: number;
  file_pages: number;
  /** Pages Astro rendered, and pages it reused from its cache (code and content unchanged). */
  astro: { rendered: number; restored: number };
  /** File pages filled in, and file pages of unchanged skills taken from the cache. */
  file_views: { written: number; reused: number };
  seconds: number;
}

function runtimeFeedPath(feedDir: string, explicit?: string): string {
  if (explicit) return explicit.replace(/^\/+|\/+$/g, '');
  const tail = feedDir.split(path.sep).slice(-2).join('/');
  return /^(feed|catalog)\/v\d+$/.test(tail) ? tail : 'feed/v1';
}

/** The folder holding astro.config.mjs and src/pages (this package's root). */
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export async function buildSite(opts: BuildSiteOptions): Promise<SiteResult> {
  const started = Date.now();
  const feedDir = path.resolve(opts.feedDir);
  for (const part of ['index.json', 'cards.json']) {
    if (!existsSync(path.join(feedDir, part))) throw new InvalidInputError(`site: ${path.join(feedDir, part)} is missing; build the feed first`);
  }
  const cacheDir = path.resolve(opts.cacheDir ?? '.cache/site');
  const feedPath = runtimeFeedPath(feedDir, opts.feedPath);
  const urls = siteUrls(opts.base, { feedPath, filesBaseUrl: opts.filesBaseUrl });
  const cards = readCards(feedDir);
  const { bodies, rendered, reused } = await renderBodies(feedDir, cards, urls, path.join(cacheDir, 'skill-html'));

  const marker = await siteMarker(cacheDir);
  const data: SiteData = { base: urls.base, feedPath, ...(opts.filesBaseUrl !== undefined ? { filesBaseUrl: opts.filesBaseUrl } : {}), marker };
  await removeAbandonedBuilds(cacheDir);
  const work = await mkdtemp(path.join(cacheDir, 'build-'));
  const astroCache = await AstroPageCache.open(path.join(cacheDir, 'astro'));
  try {
    const siteBuild: SiteBuild = { feedDir, bodies, memo: {} };
    const pages = await siteBuilds().run(siteBuild, () => runAstro(path.join(work, 'dist'), astroCache.dir, data, opts.filesBaseUrl));
    const astro = await astroCache.record();
    const views: FileViewContext = { outDir: path.join(work, 'dist'), feedDir, urls, marker, cache: await FileCache.open(path.join(cacheDir, 'file-pages')), written: 0, reused: 0 };
    const filePages = await writeFileViews(cards, views);
    await moveDir(path.join(work, 'dist'), path.resolve(opts.outDir));
    return {
      skills: cards.length,
      rendered,
      cached: reused,
      // Astro's count includes one file-page template per skill, removed once filled.
      pages: pages - cards.length + filePages,
      file_pages: filePages,
      astro: { rendered: pages - astro.restored, restored: astro.restored },
      file_views: { written: views.written, reused: views.reused },
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await astroCache.close();
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * The file pages' slot marker (src/site/site-data.ts): random, kept with the site's cache so
 * that pages Astro reuses from it carry the marker of this build.
 */
async function siteMarker(cacheDir: string): Promise<string> {
  const file = path.join(cacheDir, 'marker');
  const kept = await readFile(file, 'utf8').catch(() => '');
  if (/^sp[0-9a-f]{24}$/.test(kept)) return kept;
  const marker = `sp${randomBytes(12).toString('hex')}`;
  await atomicWrite(file, marker);
  return marker;
}

/**
 * Every page's Content-Security-Policy (a meta tag Astro writes): scripts and styles only from
 * the site itself (Astro hashes its own), no plugins, no frames; images also from the origin of
 * `site.files_base_url` when skill files are published there.
 */
function contentSecurityPolicy(filesBaseUrl: string | undefined): NonNullable<AstroInlineConfig['security']>['csp'] {
  const files = filesBaseUrl ? ` ${new URL(filesBaseUrl).origin}` : '';
  return {
    directives: [
      "default-src 'self'",
      `img-src 'self' data:${files}` as const,
      "connect-src 'self'",
      "font-src 'self'",
      "object-src 'none'",
      "frame-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ],
    scriptDirective: { resources: ["'self'"] },
    styleDirective: { resources: ["'self'"] },
  };
}

/** Astro's build of `src/pages` into `outDir`, reusing unchanged pages from `cacheDir`; returns how many pages it wrote. */
async function runAstro(outDir: string, cacheDir: string, data: SiteData, filesBaseUrl: string | undefined): Promise<number> {
  let pages = 0;
  // Astro's documented opt-out of its usage telemetry (a build must not call out to the network).
  process.env.ASTRO_TELEMETRY_DISABLED ??= '1';
  const { build } = await import('astro');
  const config: AstroInlineConfig = {
    root: PROJECT_ROOT,
    // Astro joins this onto root.
    configFile: 'astro.config.mjs',
    outDir,
    cacheDir,
    base: normalizeBase(data.base),
    logLevel: 'warn',
    vite: {
      plugins: [siteDataPlugin(data)],
      // The prerender bundle is written below outDir and run from there: bundle astro's
      // runtime into it, so it needs no node_modules wherever the working directory is.
      environments: { prerender: { resolve: { noExternal: true } } },
      // That bundle runs at build time only, and highlighting grammars are chunks loaded on
      // demand: large chunks are expected, not a warning.
      build: { chunkSizeWarningLimit: 8192 },
    },
    security: { csp: contentSecurityPolicy(filesBaseUrl) },
    // Pages whose code and `cacheKey` (src/site/page-data.ts) are unchanged are copied from the
    // cache (checked by src/site/astro-cache.ts) instead of rendered.
    experimental: { incrementalBuild: true },
    integrations: [{ name: 'skillpress-page-count', hooks: { 'astro:build:done': ({ pages: built }) => void (pages = built.length) } }],
  };
  // `sync: false`: no type generation (the pages use no content collections), which would also
  // write `.astro/` into this package's folder on every build. An option of Astro's builder that
  // the JavaScript API passes through but does not type.
  await build(config, { sync: false } as Parameters<typeof build>[1]);
  return pages;
}

/** A day-old work folder (`build-*`, `astro-private-*`) belongs to a build that was killed (a running one is minutes old). */
async function removeAbandonedBuilds(cacheDir: string): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  for (const name of await readdir(cacheDir)) {
    const dir = path.join(cacheDir, name);
    const st = name.startsWith('build-') || name.startsWith('astro-private-') ? await stat(dir).catch(() => undefined) : undefined;
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
