/**
 * Response headers that keep skill files inert on the catalog's origin (issue 11, row 4). A
 * skill file is untrusted bytes: an `.html` or `.svg` opened from the site would otherwise run
 * its script with the site's origin. One set of rules, applied three ways:
 *
 * - written as a `_headers` file into the output, for static hosts that read one (Netlify,
 *   Cloudflare Pages);
 * - applied by `skillpress preview` and `skillpress dev` (src/serve/static-server.ts);
 * - the site links active types as downloads (src/site/file-views.ts).
 *
 * Hosts that cannot set headers (GitHub Pages) should publish the files on an origin of their
 * own: `site.files_base_url` (docs/site.md).
 */
import { CATALOG_PATH, DISCOVERY_PATH, FEED_PATH } from '../lib/layout.ts';
import { normalizeBase } from './urls.ts';

/** Folders below the site root that hold files from skills. */
export const SKILL_FILE_FOLDERS = [`${FEED_PATH}/files/`, `${CATALOG_PATH}/files/`, `${DISCOVERY_PATH}/`] as const;

/** Extensions a browser opens as a document that can run script (HTML, SVG, any XML) or runs as script. */
export const ACTIVE_EXTENSIONS = [
  'html',
  'htm',
  'shtml',
  'xhtml',
  'xht',
  'mht',
  'mhtml',
  'svg',
  'svgz',
  'xml',
  'xsl',
  'xslt',
  'rdf',
  'js',
  'mjs',
  'cjs',
] as const;

/** Every skill file: no script, no plugins, no same-origin access even when opened; no type sniffing. */
export const SKILL_FILE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': 'sandbox',
  'X-Content-Type-Options': 'nosniff',
};

/** Active types additionally: saved, never shown, when opened. */
export const DOWNLOAD_HEADERS: Readonly<Record<string, string>> = { 'Content-Disposition': 'attachment' };

const ACTIVE = new Set<string>(ACTIVE_EXTENSIONS);

/** Whether a browser would run script from this file if it opened it (by extension). */
export function isActiveFile(filePath: string): boolean {
  const name = filePath.slice(filePath.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.lastIndexOf('.');
  return dot > 0 && ACTIVE.has(name.slice(dot + 1));
}

/** The extra headers for a path below the site root (decoded, no leading slash). */
export function skillFileHeaders(sitePath: string): Record<string, string> {
  if (!SKILL_FILE_FOLDERS.some((folder) => sitePath.startsWith(folder))) return {};
  return isActiveFile(sitePath) ? { ...SKILL_FILE_HEADERS, ...DOWNLOAD_HEADERS } : { ...SKILL_FILE_HEADERS };
}

/** The `_headers` file (Netlify / Cloudflare Pages syntax) for a site served under `base`. */
export function headersFile(base: string): string {
  const root = normalizeBase(base);
  const block = (pattern: string, headers: Readonly<Record<string, string>>): string =>
    [`${root}${pattern}`, ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`)].join('\n');
  const blocks = SKILL_FILE_FOLDERS.flatMap((folder) => [
    block(`${folder}*`, SKILL_FILE_HEADERS),
    // Archives and SKILL.md sit in .well-known: no active types there.
    ...(folder.startsWith('.well-known')
      ? []
      : ACTIVE_EXTENSIONS.map((ext) => block(`${folder}*.${ext}`, DOWNLOAD_HEADERS))),
  ]);
  return `# Skill files are untrusted: never run as script on this origin (written by skillpress).\n${blocks.join('\n')}\n`;
}
