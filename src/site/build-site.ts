/**
 * Build the static catalog site into `outDir` from a written feed (`feedDir`, i.e. `<out>/feed/v1`).
 * (Placeholder signature; implemented with Astro in src/site/ and src/pages/.)
 */
export interface BuildSiteOptions {
  outDir: string;
  feedDir: string;
  /** Base path the site is served under, e.g. `/` or `/skills/`. */
  base: string;
  log?: (line: string) => void;
}

export async function buildSite(_opts: BuildSiteOptions): Promise<void> {}
