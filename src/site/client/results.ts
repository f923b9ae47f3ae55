/**
 * What the catalog shows for a state: the matching skills in order, the facet counts, the
 * summary line. Pure functions over a SkillSearch and the URL state — no DOM — so they are
 * unit-tested without a browser (test/site/results.test.ts).
 */
import type { SkillSearch, SearchDoc } from '../../search/index.ts';
import type { CatalogState } from './url-state.ts';

export interface FacetEntry {
  value: string;
  count: number;
  selected: boolean;
}

/** The skills the query matches, ranked (all of them, by name, without a query). */
export function matches(search: SkillSearch, q: string, metadataOnly: boolean): SearchDoc[] {
  return q.trim() ? search.search(q, { metadataOnly }).map((h) => h.doc) : search.all();
}

const byName = (a: SearchDoc, b: SearchDoc): number => a.name.localeCompare(b.name);

/**
 * The matches that pass the filters (all but the domain with `ignoreDomain`), in the chosen
 * order. `updatedAt` (id → ISO time, from cards.json) is needed for the `updated` sort.
 */
export function results(docs: readonly SearchDoc[], state: CatalogState, updatedAt?: ReadonlyMap<string, string>, ignoreDomain = false): SearchDoc[] {
  const filtered = docs.filter((d) => (ignoreDomain || !state.domain || d.domain === state.domain) && state.tags.every((t) => d.tags?.includes(t)));
  const sort = state.sort === 'relevance' && !state.q.trim() ? 'name' : state.sort;
  if (sort === 'name') filtered.sort(byName);
  if (sort === 'updated') {
    const updated = (d: SearchDoc): string => updatedAt?.get(d.id) ?? '';
    filtered.sort((a, b) => updated(b).localeCompare(updated(a)) || byName(a, b));
  }
  return filtered;
}

/**
 * A facet's entries over `docs` (the results, so a count is how many results a value leaves):
 * selected first, then the most used, then by name.
 */
export function facetEntries(docs: readonly SearchDoc[], pick: (d: SearchDoc) => readonly string[], selected: readonly string[]): FacetEntry[] {
  const counts = new Map<string, number>();
  for (const d of docs) for (const v of new Set(pick(d))) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .map(([value, count]) => ({ value, count, selected: selected.includes(value) }))
    .sort((a, b) => Number(b.selected) - Number(a.selected) || b.count - a.count || a.value.localeCompare(b.value));
}

export const tagsOfDoc = (d: SearchDoc): readonly string[] => d.tags ?? [];
export const domainOfDoc = (d: SearchDoc): readonly string[] => (d.domain ? [d.domain] : []);

/** `3 skills for “pdf”`, `1 skill`. */
export function resultsSummary(count: number, q: string): string {
  const noun = count === 1 ? 'skill' : 'skills';
  return q.trim() ? `${count} ${noun} for “${q.trim()}”` : `${count} ${noun}`;
}
