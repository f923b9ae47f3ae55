// The catalog site. `skillpress build` runs Astro programmatically (src/site/build-site.ts),
// passing outDir, base, the feed (a Vite virtual module) and the Content-Security-Policy; this
// file holds what does not change per build.
import { defineConfig } from 'astro/config';

export default defineConfig({
  // The site's pages, components, layouts and styles live beside the code that feeds them.
  srcDir: './src/site',
  output: 'static',
  trailingSlash: 'ignore',
  build: {
    format: 'directory',
    // Every stylesheet is a file: the Content-Security-Policy then needs no inline styles.
    inlineStylesheets: 'never',
  },
  vite: {
    build: {
      // Never inline scripts or assets as data: URLs; the CSP allows scripts from 'self' only.
      assetsInlineLimit: 0,
    },
    logLevel: 'warn',
  },
  // The Content-Security-Policy is set per build by src/site/build-site.ts (it names the origin
  // of site.files_base_url when there is one).
  // SKILL.md is rendered by src/site/markdown.ts before the pages; code is highlighted in the
  // browser (src/site/client/highlight.ts).
  markdown: { syntaxHighlight: false },
  devToolbar: { enabled: false },
});
