// The catalog site. `skillpress build` runs Astro programmatically (src/site/build-site.ts),
// passing outDir, base and the feed folder; this file holds what does not change per build.
import { defineConfig } from 'astro/config';

export default defineConfig({
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
  security: {
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "frame-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ],
      scriptDirective: { resources: ["'self'"] },
      styleDirective: { resources: ["'self'"] },
    },
  },
  // Skill markdown is rendered by src/site/markdown.ts (sanitized), code by src/site/highlight.ts.
  markdown: { syntaxHighlight: false },
  devToolbar: { enabled: false },
});
