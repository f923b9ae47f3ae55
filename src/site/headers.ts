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

/**
 * Scripts additionally: sent as plain text. A page of the site loading
 * `<script src="/feed/v1/files/x/evil.js">` would run it (the site's CSP allows scripts from its
 * own origin, and neither `sandbox` nor `attachment` applies to a script a page loads); a browser
 * refuses to run a script sent as `text/plain` with `nosniff`.
 */
export const SCRIPT_EXTENSIONS = ['js', 'mjs', 'cjs'] as const;
export const SCRIPT_HEADERS: Readonly<Record<string, string>> = { 'Content-Type': 'text/plain; charset=utf-8' };
const SCRIPTS = new Set<string>(SCRIPT_EXTENSIONS);

const ACTIVE = new Set<string>(ACTIVE_EXTENSIONS);

const extension = (filePath: string): string => {
  const name = filePath.slice(filePath.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1) : '';
};

/** Whether a browser would run script from this file if it opened it (by extension). */
export function isActiveFile(filePath: string): boolean {
  return ACTIVE.has(extension(filePath));
}

/** The extra headers for a path below the site root (decoded, no leading slash). */
export function skillFileHeaders(sitePath: string): Record<string, string> {
  if (!SKILL_FILE_FOLDERS.some((folder) => sitePath.startsWith(folder))) return {};
  if (!isActiveFile(sitePath)) return { ...SKILL_FILE_HEADERS };
  const script = SCRIPTS.has(extension(sitePath)) ? SCRIPT_HEADERS : {};
  return { ...SKILL_FILE_HEADERS, ...DOWNLOAD_HEADERS, ...script };
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
      : ACTIVE_EXTENSIONS.map((ext) =>
          block(`${folder}*.${ext}`, SCRIPTS.has(ext) ? { ...DOWNLOAD_HEADERS, ...SCRIPT_HEADERS } : DOWNLOAD_HEADERS),
        )),
  ]);
  return `# Skill files are untrusted: never run as script on this origin (written by skillpress).\n${blocks.join('\n')}\n`;
}
