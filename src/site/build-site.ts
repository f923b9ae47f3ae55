/**
 * Build the static catalog site into `outDir` from a written feed (`feedDir`, i.e. the
 * `feed/v1` folder): Astro, run programmatically with this repository's `src/pages`. Pages read
 * the feed at build time; in the browser they fetch `<base>feed/v1/…` (search index, files),
 * which `skillpress build` copies beside the site.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FEED_DIR_ENV, FEED_PATH_ENV } from './feed-data.ts';
import { normalizeBase } from './urls.ts';

export interface BuildSiteOptions {
  outDir: string;
  feedDir: string;
  /** Base path the site is served under, e.g. `/` or `/skills/`. */
  base: string;
  log?: (line: string) => void;
  /**
   * Where the feed will be below the published site. Default: the feed folder's last two
   * segments when they are `feed/v1` or `catalog/v1`, else `feed/v1`.
   */
  feedPath?: string;
}

function runtimeFeedPath(feedDir: string, explicit?: string): string {
  if (explicit) return explicit.replace(/^\/+|\/+$/g, '');
  const tail = feedDir.split(path.sep).slice(-2).join('/');
  return /^(feed|catalog)\/v\d+$/.test(tail) ? tail : 'feed/v1';
}

/** The folder holding astro.config.mjs and src/pages (this package's root). */
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Astro builds one site at a time per process (it sets global state); queue the calls. */
let queue: Promise<unknown> = Promise.resolve();

export function buildSite(opts: BuildSiteOptions): Promise<void> {
  const run = queue.then(() => buildOnce(opts));
  queue = run.catch(() => {});
  return run;
}

async function buildOnce(opts: BuildSiteOptions): Promise<void> {
  const feedDir = path.resolve(opts.feedDir);
  for (const part of ['index.json', 'cards.json']) {
    if (!existsSync(path.join(feedDir, part))) throw new Error(`site: ${path.join(feedDir, part)} is missing; build the feed first`);
  }
  const started = Date.now();
  const previous = { dir: process.env[FEED_DIR_ENV], path: process.env[FEED_PATH_ENV], baseUrl: process.env.BASE_URL };
  // Pages read import.meta.env.BASE_URL, which an inherited BASE_URL environment variable
  // (set by CI systems and test runners) would override; the base comes from opts only.
  delete process.env.BASE_URL;
  process.env[FEED_DIR_ENV] = feedDir;
  process.env[FEED_PATH_ENV] = runtimeFeedPath(feedDir, opts.feedPath);
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  // Astro renders the pages through a temporary bundle that must resolve astro's own packages:
  // it lands in outDir when outDir is inside the working directory, else in <cwd>/.astro. So
  // build from this package's root into a private folder inside it (parallel builds never
  // share one), then move the site to outDir.
  const cacheRoot = path.join(PROJECT_ROOT, '.cache');
  await mkdir(cacheRoot, { recursive: true });
  const work = await mkdtemp(path.join(cacheRoot, 'site-'));
  const cwd = process.cwd();
  process.chdir(PROJECT_ROOT);
  try {
    const { build } = await import('astro');
    await build({
      root: PROJECT_ROOT,
      // Astro joins this onto root.
      configFile: 'astro.config.mjs',
      outDir: path.join(work, 'dist'),
      cacheDir: path.join(work, 'cache'),
      base: normalizeBase(opts.base),
      logLevel: (process.env.SKILLPRESS_SITE_LOG as 'info' | undefined) ?? 'warn',
    });
  } finally {
    process.chdir(cwd);
    restoreEnv(FEED_DIR_ENV, previous.dir);
    restoreEnv(FEED_PATH_ENV, previous.path);
    restoreEnv('BASE_URL', previous.baseUrl);
  }
  try {
    await moveDir(path.join(work, 'dist'), path.resolve(opts.outDir));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  opts.log?.(`site: built into ${opts.outDir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
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
