/**
 * Build the static catalog site into `outDir` from a written feed (`feedDir`, i.e. the
 * `feed/v1` folder): Astro, run programmatically with this repository's `src/pages`. Pages read
 * the feed at build time; in the browser they fetch `<base>feed/v1/…` (search index, files),
 * which `skillpress build` copies beside the site.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FEED_DIR_ENV } from './feed-data.ts';
import { normalizeBase } from './urls.ts';

export interface BuildSiteOptions {
  outDir: string;
  feedDir: string;
  /** Base path the site is served under, e.g. `/` or `/skills/`. */
  base: string;
  log?: (line: string) => void;
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
  const previousFeed = process.env[FEED_DIR_ENV];
  process.env[FEED_DIR_ENV] = feedDir;
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  try {
    const { build } = await import('astro');
    await build(
      {
        root: PROJECT_ROOT,
        configFile: 'astro.config.mjs',
        outDir: path.resolve(opts.outDir),
        base: normalizeBase(opts.base),
        logLevel: 'warn',
      },
      { teardownCompiler: false },
    );
  } finally {
    if (previousFeed === undefined) delete process.env[FEED_DIR_ENV];
    else process.env[FEED_DIR_ENV] = previousFeed;
  }
  opts.log?.(`site: built into ${opts.outDir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
