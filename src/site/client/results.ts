/**
 * What the catalog shows for a state: the matching skills in order, the facet counts, the
 * summary line. Pure functions over a SkillSearch and the URL state — no DOM — so they are
 * unit-tested without a browser (test/site/results.test.ts).
 */
import type { UsageFigures } from '../../model/usage.ts';
import { formatCount } from '../catalog.ts';
import { ratingOf, usesOf } from '../usage.ts';
import {
  typedCoverage,
  type MeaningIndex,
  type QueryWord,
  type SkillSearch,
  type SearchDoc,
  type WordMatch,
} from '../../search/index.ts';
import type { CatalogState } from './url-state.ts';

export interface FacetEntry {
  value: string;
  count: number;
  selected: boolean;
}

export interface Matches {
  /** Ranked (all skills, by name, without a query). */
  docs: SearchDoc[];
  /** By skill id, for the skills that matched only some of the query's words: what their card says (`matchNote`). */
  notes: Map<string, string>;
  /** How many of `docs` are strong matches (they come first; the rest are folded as weaker). */
  strong: number;
  /** No skill shares a word with the query (the body read too): every result was found by meaning alone. */
  meaningAlone?: boolean;
}

/**
 * The skills the query matches, ranked as `skills_search` ranks them (by meaning too, once the
 * catalog's meaning is loaded and the query has several words), and which matched only part of it.
 * `noted`: the notes of the first this many only (those shown), default all.
 */
export function matches(
  search: SkillSearch,
  q: string,
  metadataOnly: boolean,
  meaning?: MeaningIndex,
  noted?: number,
): Matches {
  if (!q.trim()) {
    const docs = search.all();
    return { docs, notes: new Map(), strong: docs.length };
  }
  const page = search.searchPage(q, { metadataOnly, ...(meaning && { meaning }), detailed: noted });
  const notes = new Map<string, string>();
  for (const hit of page.hits.slice(0, noted)) {
    const note = matchNote(hit.words, page.words);
    if (note) notes.set(hit.id, note);
  }
  // Only once the bodies are searched too: a word in no name or description may be in a body.
  const meaningAlone = !metadataOnly && page.total > 0 && page.words.every((w) => w.documents === 0);
  return { docs: page.hits.map((h) => h.doc), notes, strong: page.strong, meaningAlone };
}

/**
 * `Matches 2 of 3 words: reduce, GCP` for a skill that matched only some of the query's
 * meaningful words (ranked search lists those after the skills matching all of them): a reader
 * sees why it is there; `Close in meaning; no word in common` for one found by meaning alone.
 * Undefined when it matched every word. Words are counted as typed: a joined word the skill
 * matched (`payroll` for "pay roll") covers the two it joins.
 */
export function matchNote(matched: readonly WordMatch[], words: readonly QueryWord[]): string | undefined {
  const { matched: count, typed } = typedCoverage(matched, words);
  if (matched.length === 0 && typed > 0) return 'Close in meaning; no word in common';
  if (count >= typed) return undefined;
  return `Matches ${count} of ${typed} words: ${matched.map((m) => m.word).join(', ')}`;
}

const byName = (a: SearchDoc, b: SearchDoc): number => a.name.localeCompare(b.name);

/** Whether `results` keeps the ranked matches as they are (no filter, ranked by relevance): the cards shown are then the first matches. */
export const keepsRankOrder = (state: CatalogState): boolean =>
  state.sort === 'relevance' && !state.domain && !state.folder && !state.registry && state.tags.length === 0;

/** What `results` may need besides the matches, from cards.json. */
export interface ResultsContext {
  /** Id → ISO time: needed for the `updated` sort. */
  updatedAt?: ReadonlyMap<string, string>;
  usage?: ReadonlyMap<string, UsageFigures>;
  /** Id → folder group (src/site/catalog.ts `folderOf`; absent for none): needed for a folder filter. */
  folders?: ReadonlyMap<string, string>;
  /** A filter to leave out: its facet's counts then show what each of its values would give. */
  ignore?: 'domain' | 'folder' | 'registry';
}

/** The matches that pass the filters, in the chosen order. */
export function results(docs: readonly SearchDoc[], state: CatalogState, ctx: ResultsContext = {}): SearchDoc[] {
  const domain = ctx.ignore === 'domain' ? undefined : state.domain;
  const folder = ctx.ignore === 'folder' ? undefined : state.folder;
  const registry = ctx.ignore === 'registry' ? undefined : state.registry;
  const filtered = docs.filter(
    (d) =>
      (!domain || d.domain === domain) &&
      (!registry || d.registry === registry) &&
      (!folder || ctx.folders?.get(d.id) === folder) &&
      state.tags.every((t) => d.tags?.includes(t)),
  );
  const sort = state.sort === 'relevance' && !state.q.trim() ? 'name' : state.sort;
  if (sort === 'name') filtered.sort(byName);
  if (sort === 'updated') {
    const updated = (d: SearchDoc): string => ctx.updatedAt?.get(d.id) ?? '';
    filtered.sort((a, b) => updated(b).localeCompare(updated(a)) || byName(a, b));
  }
  if (sort === 'used' || sort === 'rated') {
    const key = sort === 'used' ? usesOf : ratingOf;
    const of = (d: SearchDoc): number => key(ctx.usage?.get(d.id));
    filtered.sort((a, b) => of(b) - of(a) || byName(a, b));
  }
  return filtered;
}

/**
 * A facet's entries over `docs` (the results, so a count is how many results a value leaves):
 * selected first, then the most used, then by name.
 */
export function facetEntries(
  docs: readonly SearchDoc[],
  pick: (d: SearchDoc) => readonly string[],
  selected: readonly string[],
): FacetEntry[] {
  const counts = new Map<string, number>();
  for (const d of docs) for (const v of new Set(pick(d))) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .map(([value, count]) => ({ value, count, selected: selected.includes(value) }))
    .sort((a, b) => Number(b.selected) - Number(a.selected) || b.count - a.count || a.value.localeCompare(b.value));
}

export const tagsOfDoc = (d: SearchDoc): readonly string[] => d.tags ?? [];
export const domainOfDoc = (d: SearchDoc): readonly string[] => (d.domain ? [d.domain] : []);
export const registryOfDoc = (d: SearchDoc): readonly string[] => [d.registry];

/**
 * `3 skills for “pdf”`, `1 skill`, `12 skills for “review my terraform” and 250 weaker matches`;
 * `4 skills close in meaning to “…”; none shares a word with it` when found by meaning alone.
 */
export function resultsSummary(count: number, q: string, weaker = 0, meaningAlone = false): string {
  const noun = count === 1 ? 'skill' : 'skills';
  const more = weaker > 0 ? ` and ${formatCount(weaker)} weaker ${weaker === 1 ? 'match' : 'matches'}` : '';
  const counted = `${formatCount(count)} ${noun}`;
  if (!q.trim()) return counted;
  if (meaningAlone && count > 0)
    return `${counted} close in meaning to “${q.trim()}”${more}; none shares a word with it`;
  return `${counted} for “${q.trim()}”${more}`;
}

/** What an empty list says: removing a filter helps only when one is chosen. */
export function emptyText(state: Pick<CatalogState, 'tags' | 'domain' | 'folder' | 'registry'>): string {
  const filtered =
    state.tags.length > 0 || state.domain !== undefined || state.folder !== undefined || state.registry !== undefined;
  return filtered
    ? 'No skill matches. Try fewer words or remove a filter.'
    : 'No skill matches. Try fewer or other words.';
}

/**
 * How many of the filtered results to show before the fold: the strong ones (at least one), or
 * every one once the reader opened the fold.
 */
export function unfolded(docs: readonly SearchDoc[], strongIds: ReadonlySet<string>, open: boolean): number {
  if (open) return docs.length;
  const n = docs.findIndex((d) => !strongIds.has(d.id));
  return n < 0 ? docs.length : Math.max(1, n);
}
