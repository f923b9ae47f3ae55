/**
 * What the catalog pages compute from the cards: facets (tags, domains, folders and registries with
 * counts) and pages of the browsable list. Shared by the home page and the list pages.
 */
import type { Card } from '../model/feed.ts';
import { slug } from './urls.ts';

/** Cards per page of the list that works without JavaScript (and per "Show more" with it). */
export const PAGE_SIZE = 48;
/** Tags listed in the catalog's filter before "All tags". */
export const TAGS_SHOWN = 24;

export interface Facet {
  value: string;
  count: number;
}

/** Values with how many cards carry them, most used first, then by name. */
export function facets(cards: readonly Card[], pick: (c: Card) => readonly string[]): Facet[] {
  const counts = new Map<string, number>();
  for (const card of cards) for (const v of new Set(pick(card))) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
}

export const tagsOf = (c: Card): readonly string[] => c.tags;
export const domainOf = (c: Card): readonly string[] => (c.domain ? [c.domain] : []);
/** The registry a skill comes from: this one, or an imported skill's origin. */
export const registryOf = (c: Card): readonly string[] => [c.registry];

/**
 * The folder group a skill is filed under: the first folder of its path below the skills folder,
 * skipping `skills` and a leading `plugins` (`.curated/pdf` → `.curated`; `plugins/git/skills/x`
 * → `git`; `qdrant-scaling/setup` → `qdrant-scaling`). None for a skill at the top.
 */
export function folderOf(c: Pick<Card, 'folder'>): readonly string[] {
  const parts = (c.folder ?? '').split('/').filter((p) => p !== '' && p !== 'skills');
  if (parts[0] === 'plugins' && parts.length > 1) parts.shift();
  return parts.length > 0 ? [parts[0]!] : [];
}

export interface CatalogFacets {
  tags: Facet[];
  /** Only when skills are in more than one domain: a single `general` filters nothing. */
  domains: Facet[];
  /**
   * Folder groups, only where fewer than half of the skills carry tags (a catalog tagged here and
   * there is sorted by its folders: google/skills tags 2 of its 112), skills are in more than one
   * group, and at least half of them are in one (a few nested skills among hundreds at the top
   * sort nothing).
   */
  folders: Facet[];
  /** Only when the skills come from more than one registry (an aggregator's site). */
  registries: Facet[];
}

/** What the browse page (`/tags/`) is called for these facets; undefined when it has nothing to list. */
export function browseLabel(f: CatalogFacets): string | undefined {
  if (f.tags.length > 0 && f.folders.length > 0) return 'Browse';
  if (f.tags.length > 0) return 'Tags';
  if (f.folders.length > 0) return 'Folders';
  if (f.domains.length > 0) return 'Domains';
  if (f.registries.length > 0) return 'Registries';
  return undefined;
}

const facetsOf = new WeakMap<readonly Card[], Readonly<CatalogFacets>>();

/**
 * The facets a catalog has something to filter by; the others are empty (and not shown). Worked
 * out once per list of cards: every page's navigation and every skill page ask again.
 */
export function catalogFacets(cards: readonly Card[]): Readonly<CatalogFacets> {
  let found = facetsOf.get(cards);
  if (!found) facetsOf.set(cards, (found = countFacets(cards)));
  return found;
}

function countFacets(cards: readonly Card[]): CatalogFacets {
  const tags = facets(cards, tagsOf);
  const domains = facets(cards, domainOf);
  const registries = facets(cards, registryOf);
  const tagged = cards.filter((c) => c.tags.length > 0).length;
  const folders = tagged * 2 < cards.length ? facets(cards, folderOf) : [];
  const filed = folders.reduce((n, f) => n + f.count, 0);
  return {
    tags,
    domains: domains.length > 1 ? domains : [],
    folders: folders.length > 1 && filed * 2 >= cards.length ? folders : [],
    registries: registries.length > 1 ? registries : [],
  };
}

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}

export function pageOf<T>(items: readonly T[], page: number): T[] {
  return items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
}

/** The lists that have a page of their own: a tag's, a domain's, a folder's and a registry's. */
export type ListKind = 'tag' | 'domain' | 'folder' | 'registry';

/** The values with a page of `kind` (folders and registries only where they are a facet), with their counts. */
export function listFacets(cards: readonly Card[], kind: ListKind): Facet[] {
  if (kind === 'folder') return catalogFacets(cards).folders;
  if (kind === 'registry') return catalogFacets(cards).registries;
  return facets(cards, kind === 'tag' ? tagsOf : domainOf);
}

/** The cards of one tag's, domain's, folder's or registry's page, in the catalog's order (by name). */
export function listCards(cards: readonly Card[], kind: ListKind, value: string): Card[] {
  const pick = { tag: tagsOf, domain: domainOf, folder: folderOf, registry: registryOf }[kind];
  return cards.filter((c) => pick(c).includes(value));
}

/**
 * The `page/…` URLs of the lists longer than a page: `page/` (n undefined) and `page/1/`, which
 * lead to the list's first page, and pages 2…. A list of one page has none.
 */
export function listPagePaths(lists: readonly Facet[]): Array<{ value: string; n: string | undefined }> {
  return lists.flatMap(({ value, count }) => {
    const pages = pageCount(count);
    if (pages === 1) return [];
    return [undefined, ...Array.from({ length: pages }, (_, i) => String(i + 1))].map((n) => ({ value, n }));
  });
}

/**
 * The routes of a list kind's `page/…` pages (getStaticPaths): `param` is the route parameter
 * naming the list (`tag` in `tags/[tag]/page/[...n]`), `n` the page (none for `page/`).
 */
export function listPageRoutes(
  cards: readonly Card[],
  kind: ListKind,
  param: string,
): Array<{ params: Record<string, string | undefined>; props: { value: string } }> {
  return listPagePaths(listFacets(cards, kind)).map(({ value, n }) => ({
    params: { [param]: slug(value), n },
    props: { value },
  }));
}

/** A count as readers write it: `1,650 skills`, as the MCP server says it. */
export function formatCount(n: number): string {
  return n.toLocaleString('en');
}

export function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().slice(0, 10);
}

/** The name a skill is shown by: its display title when the loader gave it one, else its name. */
export function displayName(skill: { name: string; title?: string }): string {
  return skill.title ?? skill.name;
}

/**
 * A version as shown beside a skill: `v` and the version, unless the version already starts with
 * it (`metadata.version: v1` is "v1", not "vv1").
 */
export function versionLabel(version: string): string {
  return /^v\d/i.test(version) ? version : `v${version}`;
}

export { originLabel } from '../model/origin.ts';
