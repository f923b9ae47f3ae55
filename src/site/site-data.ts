/**
 * What one site build hands to its pages: the feed folder, URLs, where each skill's rendered
 * SKILL.md is. Astro renders the pages in a bundle of its own, so this reaches them as a Vite
 * virtual module (`virtual:skillpress/site`) holding these values as JSON — no environment
 * variables, no working-directory changes, nothing shared between two builds in one process.
 *
 * One thing is decided only once Astro has bundled the site's code: which skills' pages this
 * build renders (the others are reused, src/site/page-cache.ts). That reaches the pages through
 * a registry under a global symbol (they run from a bundle with its own copy of this module),
 * keyed by the build's marker, which is unique to the build.
 */
import type { AstroInlineConfig } from 'astro';

export const SITE_DATA_MODULE = 'virtual:skillpress/site';

export interface SiteData {
  /** The feed folder the pages read at build time. */
  feedDir: string;
  /** Base path the site is served under (`/`, `/skills/`). */
  base: string;
  /** Where that feed is below the published site (`feed/v1`, `catalog/v1`). */
  feedPath: string;
  /** `site.files_base_url`: the origin skill files are published on, when not the site's. */
  filesBaseUrl?: string;
  /** `site.command`: how the snippets run skillpress. */
  command?: string;
  /** Skill id → file holding its rendered SKILL.md (the render cache). */
  bodies: Record<string, string>;
  /**
   * A random token of this build: the files page marks the places a file view fills in with it
   * (src/site/file-views.ts). Skill content cannot guess it, so cannot forge a slot.
   */
  marker: string;
  /**
   * Set by `skillpress dev` (src/site/live-site.ts): the pages are rendered on request by Astro's
   * dev server, and `feedDir` and `bodies` above are those of the first build only; the pages read
   * the current ones from {@link liveSites} under `marker`.
   */
  live?: boolean;
}

/** What the pages of a live site read now: the feed and bodies of the build being served. */
export interface LiveState {
  feedDir: string;
  bodies: Record<string, string>;
  /** Counts the builds served: what the pages read is kept until it changes. */
  generation: number;
}

const LIVE = Symbol.for('skillpress.live-sites');

/** The live sites of this process, by marker (their pages run in Astro's module runner, with their own copy of this module). */
export function liveSites(): Map<string, LiveState> {
  const g = globalThis as { [LIVE]?: Map<string, LiveState> };
  return (g[LIVE] ??= new Map());
}

/** The skills whose page, and whose file pages' template, this build renders. */
export interface RenderPlan {
  skills: ReadonlySet<string>;
  templates: ReadonlySet<string>;
}

const PLANS = Symbol.for('skillpress.site-render-plans');

/** Render plans of the builds running in this process, by marker. */
export function renderPlans(): Map<string, RenderPlan> {
  const g = globalThis as { [PLANS]?: Map<string, RenderPlan> };
  return (g[PLANS] ??= new Map());
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
