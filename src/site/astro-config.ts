/**
 * What every run of Astro over this package's pages shares, the build's (src/site/build-site.ts)
 * and `skillpress dev`'s live site (src/site/live-site.ts): the project, the base, the feed as a
 * Vite virtual module, and the Content-Security-Policy.
 */
import { fileURLToPath } from 'node:url';
import type { AstroInlineConfig } from 'astro';
import { siteDataPlugin, type SiteData } from './site-data.ts';
import { normalizeBase } from './urls.ts';

/** The folder holding astro.config.mjs and src/site/pages (this package's root). */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

type VitePlugins = NonNullable<NonNullable<AstroInlineConfig['vite']>['plugins']>;

/** Astro's config for the site of `data`: Vite's cache in `cacheDir`, with `plugins` beside the feed's. */
export function astroConfig(data: SiteData, cacheDir: string, plugins: VitePlugins = []): AstroInlineConfig {
  // Astro's documented opt-out of its usage telemetry (a build must not call out to the network).
  process.env.ASTRO_TELEMETRY_DISABLED ??= '1';
  return {
    root: PROJECT_ROOT,
    // Astro joins this onto root.
    configFile: 'astro.config.mjs',
    cacheDir,
    base: normalizeBase(data.base),
    logLevel: 'warn',
    vite: { plugins: [siteDataPlugin(data), ...plugins] },
    security: { csp: contentSecurityPolicy(data.filesBaseUrl) },
  };
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
