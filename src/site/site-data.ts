/**
 * What one site build hands to its pages, in two parts:
 *
 * - `SiteData`, what the pages' code depends on (URLs, the slot marker): a Vite virtual module
 *   (`virtual:skillpress/site`) holding these values as JSON. It is the same in every build of
 *   one site, so Astro's incremental build (its hash of each page's code) can reuse pages.
 * - `SiteBuild`, this build's feed folder and rendered SKILL.md files, which change with every
 *   build: an AsyncLocalStorage that build-site.ts runs Astro in. The pages run from a bundle
 *   with its own copy of this module, so the storage is found under a global symbol. Nothing
 *   else is shared: two builds in one process each see their own.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AstroInlineConfig } from 'astro';
import type { Card, FeedIndex } from '../model/feed.ts';

export const SITE_DATA_MODULE = 'virtual:skillpress/site';

export interface SiteData {
  /** Base path the site is served under (`/`, `/skills/`). */
  base: string;
  /** Where that feed is below the published site (`feed/v1`, `catalog/v1`). */
  feedPath: string;
  /** `site.files_base_url`: the origin skill files are published on, when not the site's. */
  filesBaseUrl?: string;
  /**
   * A random token kept with the site's cache: the files page marks the places a file view
   * fills in with it (src/site/file-views.ts). Skill content cannot guess it, so cannot forge a slot.
   */
  marker: string;
}

/** One build's inputs to its pages. */
export interface SiteBuild {
  /** The feed folder the pages read at build time. */
  feedDir: string;
  /** Skill id → its rendered SKILL.md: the file holding it and the sha256 of its bytes. */
  bodies: Record<string, { file: string; sha256: string }>;
  /** What the pages read once per build (src/site/page-data.ts). */
  memo: { cards?: Card[]; index?: FeedIndex; keys?: { registry: string; skills: Map<string, string>; cards: string } };
}

const STORE = Symbol.for('skillpress.site-build');

/** The storage every copy of this module shares. */
export function siteBuilds(): AsyncLocalStorage<SiteBuild> {
  const g = globalThis as { [STORE]?: AsyncLocalStorage<SiteBuild> };
  return (g[STORE] ??= new AsyncLocalStorage<SiteBuild>());
}

/** The build these pages are rendered in. */
export function currentBuild(): SiteBuild {
  const build = siteBuilds().getStore();
  if (!build) throw new Error('site pages rendered outside a skillpress site build');
  return build;
}

/** A slot of the file pages' template: `<marker>:<name>`. */
export const slot = (marker: string, name: 'title' | 'panel'): string => `${marker}:${name}`;

type VitePlugin = NonNullable<NonNullable<AstroInlineConfig['vite']>['plugins']>[number];

export function siteDataPlugin(data: SiteData): VitePlugin {
  const resolved = `\0${SITE_DATA_MODULE}`;
  return {
    name: 'skillpress-site-data',
    resolveId: (id: string) => (id === SITE_DATA_MODULE ? resolved : undefined),
    load: (id: string) => (id === resolved ? `export default ${JSON.stringify(data)};` : undefined),
  };
}
