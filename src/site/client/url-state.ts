/**
 * The catalog's state as it lives in the URL: `?q=…&tag=…&tag=…&domain=…&folder=…&registry=…&sort=…`, so a search
 * can be shared. Pure functions of strings (no `location`, no `history`): unit-tested in Node.
 */

export type Sort = 'relevance' | 'name' | 'updated' | 'used' | 'rated';

export interface CatalogState {
  q: string;
  tags: string[];
  domain: string | undefined;
  /** A folder group (src/site/catalog.ts `folderOf`), where folders are a facet. */
  folder: string | undefined;
  /** The registry the skills come from, where registries are a facet (an aggregator's site). */
  registry: string | undefined;
  sort: Sort;
}

const SORTS: readonly string[] = ['relevance', 'name', 'updated', 'used', 'rated'];

/** The state a query string (`location.search`) describes; anything unknown is ignored. */
export function readState(search: string): CatalogState {
  const p = new URLSearchParams(search);
  const sort = p.get('sort') ?? '';
  return {
    q: p.get('q') ?? '',
    tags: p.getAll('tag'),
    domain: p.get('domain') ?? undefined,
    folder: p.get('folder') ?? undefined,
    registry: p.get('registry') ?? undefined,
    sort: SORTS.includes(sort) ? (sort as Sort) : 'relevance',
  };
}

/** The query string for a state (with `?`), or '' for the default state. */
export function stateQuery(state: CatalogState): string {
  const p = new URLSearchParams();
  if (state.q) p.set('q', state.q);
  for (const t of state.tags) p.append('tag', t);
  if (state.domain) p.set('domain', state.domain);
  if (state.folder) p.set('folder', state.folder);
  if (state.registry) p.set('registry', state.registry);
  if (state.sort !== 'relevance') p.set('sort', state.sort);
  const qs = p.toString();
  return qs ? `?${qs}` : '';
}

/** Whether the state asks for anything beyond the plain list (then the page searches at once). */
export function isActive(state: CatalogState): boolean {
  return (
    state.q !== '' ||
    state.tags.length > 0 ||
    state.domain !== undefined ||
    state.folder !== undefined ||
    state.registry !== undefined ||
    state.sort !== 'relevance'
  );
}

export type FacetKind = 'tag' | 'domain' | 'folder' | 'registry';

/** The state with a tag, the domain, the folder or the registry switched on or off (one of each but tags at a time). */
export function toggle(state: CatalogState, kind: FacetKind, value: string): CatalogState {
  if (kind === 'tag')
    return {
      ...state,
      tags: state.tags.includes(value) ? state.tags.filter((t) => t !== value) : [...state.tags, value],
    };
  if (kind === 'folder') return { ...state, folder: state.folder === value ? undefined : value };
  if (kind === 'registry') return { ...state, registry: state.registry === value ? undefined : value };
  return { ...state, domain: state.domain === value ? undefined : value };
}
