/**
 * URLs of the site and of the feed beside it. Every path is built from `base` (the sub-path
 * the site is served under, always ending in `/`) and percent-encoded per segment, so a file
 * named `#1 ?q%20.txt` or `日本語 ファイル.md` links to itself.
 */

/** `/`, `/skills/`: leading and trailing slash, nothing doubled. */
export function normalizeBase(base: string | undefined): string {
  const trimmed = (base ?? '/').replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}/` : '/';
}

import { encodePath } from '../lib/paths.ts';

export { encodePath };

/**
 * A URL-safe, readable slug for a tag, domain or registry: lowercase ASCII letters, digits and hyphens.
 * When that loses anything (case, spaces, non-ASCII), a short hash keeps two tags apart.
 */
export function slug(value: string): string {
  const plain = value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (plain === value && plain) return plain;
  return [plain.slice(0, 48), fnv1a(value)].filter(Boolean).join('-');
}

/** 32-bit FNV-1a in base 36: short, stable, and the same in the browser and in Node. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (const ch of new TextEncoder().encode(text)) {
    h ^= ch;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

export interface SiteUrls {
  base: string;
  home: string;
  about: string;
  tags: string;
  skill(id: string): string;
  /** The skill's files page: its file tree, no file open. */
  files(id: string): string;
  /** The page of one file (its view), which the skill page also opens in place. */
  fileView(id: string, filePath: string): string;
  tag(tag: string): string;
  domain(domain: string): string;
  /** The page of a registry's skills, where the cards come from several (src/site/catalog.ts `registryOf`). */
  registry(registry: string): string;
  /** The page of a folder group (src/site/catalog.ts `folderOf`). */
  folder(folder: string): string;
  /** Each folder group's skill ids, for the search's folder filter (src/site/pages/folders/skills.json.ts). */
  folderSkills: string;
  /** A part of the feed the site reads in the browser (search index, cards). */
  feed(rel: string): string;
  /** A part of the published feed (`feed/v1`, what peers read). */
  publicFeed(rel: string): string;
  discovery: string;
  /** The page about the feed (`feed/`): what it is for and its parts. `feed/v1/` leads to it. */
  feedPage: string;
  /** A file's raw bytes: below the feed, or below `files_base_url` when it is set. */
  file(id: string, filePath: string): string;
  /** A link from the feed (relative to `feed/v1/<from>`), resolved against the site. */
  fromFeed(from: string, link: string): string;
  /** Page `n` of the catalog's list that works without JavaScript: `/` for page 1, `/page/n/` after. */
  page(n: number): string;
  /**
   * Page `n` of a list whose first page is at `list` (a tag's, a domain's or a folder's page):
   * `list` itself for page 1, `<list>page/n/` after, as the catalog's pages are.
   */
  listPage(list: string, n: number): string;
}

/** The published feed's folder below the site. */
export const PUBLIC_FEED_PATH = 'feed/v1';

export interface SiteUrlOptions {
  /**
   * The folder of the feed the site was built from, below the site: `feed/v1`, or `catalog/v1`
   * when the site shows imported skills that the published feed leaves out.
   */
  feedPath?: string;
  /** Where the feed's `files/` folder is published instead, on an origin of its own (`site.files_base_url`). */
  filesBaseUrl?: string;
}

/** Page `n` of a list whose first page is at `list` (ending in `/`). */
const listPage = (list: string, n: number): string => (n <= 1 ? list : `${list}page/${n}/`);

export function siteUrls(baseInput: string, options: SiteUrlOptions = {}): SiteUrls {
  const base = normalizeBase(baseInput);
  const feedPath = options.feedPath ?? PUBLIC_FEED_PATH;
  const feed = (rel: string) => `${base}${feedPath}/${rel}`;
  const filesRoot = options.filesBaseUrl ? options.filesBaseUrl.replace(/\/*$/, '/') : feed('files/');
  const skill = (id: string) => `${base}skills/${encodeURIComponent(id)}/`;
  return {
    base,
    home: base,
    about: `${base}about/`,
    tags: `${base}tags/`,
    skill,
    files: (id) => `${skill(id)}files/`,
    fileView: (id, filePath) => `${skill(id)}files/${encodePath(filePath)}/`,
    tag: (tag) => `${base}tags/${slug(tag)}/`,
    domain: (domain) => `${base}domains/${slug(domain)}/`,
    registry: (registry) => `${base}registries/${slug(registry)}/`,
    folder: (folder) => `${base}folders/${slug(folder)}/`,
    folderSkills: `${base}folders/skills.json`,
    feed,
    publicFeed: (rel) => `${base}${PUBLIC_FEED_PATH}/${rel}`,
    discovery: `${base}.well-known/agent-skills/index.json`,
    feedPage: `${base}feed/`,
    file: (id, filePath) => `${filesRoot}${encodeURIComponent(id)}/${encodePath(filePath)}`,
    fromFeed: (from, link) => {
      const url = new URL(link, `http://site${feed(from)}`);
      return url.origin === 'http://site' ? url.pathname + url.search : url.href;
    },
    page: (n) => listPage(base, n),
    listPage,
  };
}
