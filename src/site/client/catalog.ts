/**
 * The catalog's search, as you type. Progressive enhancement of the server-rendered list:
 *
 * - `search.json` (metadata index with card fields) is fetched on first focus, keystroke,
 *   filter click, or when the URL already holds a query; nothing is fetched before.
 * - `search-body.json` (SKILL.md words) follows in the background after the first query, so
 *   words that only appear in a skill's body are found too; results refresh when it arrives.
 * - State lives in the URL (`?q=…&tag=…&domain=…&sort=…`): a search can be shared.
 */
import { SkillSearch, type SearchDoc } from '../../search/index.ts';
import { siteUrls } from '../urls.ts';
import { PAGE_SIZE, TAGS_SHOWN } from '../catalog.ts';
import { renderCard, renderChip, renderFacetItems, type FacetEntry } from './render.ts';

type Sort = 'relevance' | 'name' | 'updated';

interface State {
  q: string;
  tags: string[];
  domain: string | undefined;
  sort: Sort;
}

const BATCH = PAGE_SIZE;
/**
 * While typing, results come from the metadata index at once; the body index (whose prefix
 * and typo expansion of short words costs more) refines them once typing pauses this long.
 */
const REFINE_AFTER_MS = 150;

const root = document.querySelector<HTMLElement>('.catalog');
if (root) init(root);

function init(root: HTMLElement): void {
  const urls = siteUrls(document.body.dataset.base ?? '/');
  const feed = root.dataset.feed!;
  const localRegistry = root.dataset.registry ?? '';
  const form = root.querySelector<HTMLFormElement>('[data-search-form]')!;
  const input = root.querySelector<HTMLInputElement>('input[type="search"]')!;
  const list = root.querySelector<HTMLOListElement>('#results')!;
  const count = root.querySelector<HTMLElement>('[data-results-count]')!;
  const sortBox = root.querySelector<HTMLElement>('[data-sort]')!;
  const sortSelect = sortBox.querySelector('select')!;
  const empty = root.querySelector<HTMLElement>('[data-empty]')!;
  const more = root.querySelector<HTMLButtonElement>('[data-more]')!;
  const pagination = root.querySelector<HTMLElement>('[data-pagination]')!;
  const activeFilters = root.querySelector<HTMLElement>('[data-active-filters]')!;
  const tagFacet = root.querySelector<HTMLElement>('[data-facet="tag"]');
  const domainFacet = root.querySelector<HTMLElement>('[data-facet="domain"]');

  const state = readState();
  let index: SkillSearch | undefined;
  let loading: Promise<SkillSearch> | undefined;
  let bodyLoading: Promise<void> | undefined;
  /** Update times from cards.json, fetched only when someone sorts by them. */
  let updatedAt: Map<string, string> | undefined;
  let shown = BATCH;
  let active = false;
  let showAllTags = false;
  let refineTimer: ReturnType<typeof setTimeout> | undefined;

  input.value = state.q;
  sortSelect.value = state.sort;
  sortBox.hidden = false;

  function readState(): State {
    const p = new URLSearchParams(location.search);
    const sort = p.get('sort');
    return {
      q: p.get('q') ?? '',
      tags: p.getAll('tag'),
      domain: p.get('domain') ?? undefined,
      sort: sort === 'name' || sort === 'updated' || sort === 'relevance' ? sort : 'relevance',
    };
  }

  function writeState(): void {
    const p = new URLSearchParams();
    if (state.q) p.set('q', state.q);
    for (const t of state.tags) p.append('tag', t);
    if (state.domain) p.set('domain', state.domain);
    if (state.sort !== 'relevance') p.set('sort', state.sort);
    const qs = p.toString();
    history.replaceState(null, '', qs ? `?${qs}` : location.pathname);
  }

  async function fetchJson(name: string): Promise<unknown> {
    const res = await fetch(`${feed}${name}`);
    if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
    return res.json();
  }

  function loadIndex(): Promise<SkillSearch> {
    loading ??= fetchJson('search.json').then((json) => (index = SkillSearch.load(json)));
    loading.catch(() => {
      loading = undefined;
      count.textContent = 'Search is unavailable right now: the search index could not be loaded.';
    });
    return loading;
  }

  function loadBody(): void {
    if (bodyLoading || !index) return;
    bodyLoading = fetchJson('search-body.json')
      .then((json) => {
        index!.attachBody(json);
        if (state.q.trim()) render();
      })
      .catch(() => {
        // Metadata search still works; body-only words are just not found.
      });
  }

  /** The skills the query matches, ranked (all of them, by name, without a query). */
  function matches(search: SkillSearch, metadataOnly: boolean): SearchDoc[] {
    return state.q.trim() ? search.search(state.q, { metadataOnly }).map((h) => h.doc) : search.all();
  }

  /** The matches that pass the filters (all but `ignore`), in the chosen order. */
  function results(docs: SearchDoc[], ignore?: 'domain'): SearchDoc[] {
    const filtered = docs.filter((d) => (ignore === 'domain' || !state.domain || d.domain === state.domain) && state.tags.every((t) => d.tags?.includes(t)));
    const sort = state.sort === 'relevance' && !state.q.trim() ? 'name' : state.sort;
    if (sort === 'name') filtered.sort((a, b) => a.name.localeCompare(b.name));
    if (sort === 'updated') {
      const updated = (d: SearchDoc) => updatedAt?.get(d.id) ?? '';
      filtered.sort((a, b) => updated(b).localeCompare(updated(a)) || a.name.localeCompare(b.name));
    }
    return filtered;
  }

  function facetCounts(docs: SearchDoc[], pick: (d: SearchDoc) => readonly string[]): Map<string, number> {
    const counts = new Map<string, number>();
    for (const d of docs) for (const v of new Set(pick(d))) counts.set(v, (counts.get(v) ?? 0) + 1);
    return counts;
  }

  function renderFacet(section: HTMLElement | null, counts: Map<string, number>, selected: string[], limit: number, label: (v: string) => string): void {
    if (!section) return;
    const entries: FacetEntry[] = [...counts]
      .map(([value, n]) => ({ value, count: n, selected: selected.includes(value) }))
      .sort((a, b) => Number(b.selected) - Number(a.selected) || b.count - a.count || a.value.localeCompare(b.value));
    const ul = section.querySelector('ul')!;
    ul.replaceChildren(...renderFacetItems(entries.slice(0, limit), label));
    const moreLink = section.querySelector<HTMLElement>('.facet-more');
    if (moreLink) moreLink.hidden = entries.length <= limit;
  }

  /** `quick`: metadata index only (while typing); `full`: with the body index when loaded. */
  function render(mode: 'quick' | 'full' = 'full'): void {
    if (!index) return;
    clearTimeout(refineTimer);
    const started = performance.now();
    const metadataOnly = mode === 'quick' || !index.hasBody;
    const matched = matches(index, metadataOnly);
    const docs = results(matched);
    // Counts are over the results, so a tag's count is the number of results it leaves; domain
    // counts ignore the chosen domain, so switching domains shows what each would give.
    renderFacet(tagFacet, facetCounts(docs, (d) => d.tags ?? []), state.tags, showAllTags ? Infinity : TAGS_SHOWN, (v) => `#${v}`);
    const domainBase = state.domain ? results(matched, 'domain') : docs;
    renderFacet(domainFacet, facetCounts(domainBase, (d) => (d.domain ? [d.domain] : [])), state.domain ? [state.domain] : [], Infinity, (v) => v);

    list.replaceChildren(...docs.slice(0, shown).map((d) => renderCard(d, urls, localRegistry)));
    const n = docs.length;
    const noun = n === 1 ? 'skill' : 'skills';
    count.textContent = state.q.trim() ? `${n} ${noun} for “${state.q.trim()}”` : `${n} ${noun}`;
    empty.hidden = n > 0;
    more.hidden = n <= shown;
    more.textContent = `Show more (${n - Math.min(n, shown)} left)`;
    pagination.hidden = true;

    const chips: HTMLElement[] = [];
    if (state.domain) chips.push(renderChip(state.domain, () => toggle('domain', state.domain!)));
    for (const t of state.tags) chips.push(renderChip(`#${t}`, () => toggle('tag', t)));
    activeFilters.replaceChildren(...chips);
    activeFilters.hidden = chips.length === 0;
    list.dataset.searchMs = (performance.now() - started).toFixed(2);
    list.dataset.state = `${state.q}|${state.tags.join(',')}|${state.domain ?? ''}|${state.sort}|${metadataOnly ? 'meta' : 'body'}`;
  }

  async function update(resetShown = true): Promise<void> {
    if (resetShown) shown = BATCH;
    writeState();
    active = true;
    if (!index) {
      count.textContent = 'Loading search…';
      await loadIndex();
    }
    if (state.sort === 'updated' && !updatedAt) {
      const cards = (await fetchJson('cards.json').catch(() => ({ skills: [] }))) as { skills: Array<{ id: string; updated_at: string }> };
      updatedAt = new Map(cards.skills.map((c) => [c.id, c.updated_at]));
    }
    if (state.q.trim() && index!.hasBody) {
      render('quick');
      refineTimer = setTimeout(() => render('full'), REFINE_AFTER_MS);
    } else render();
    if (state.q.trim()) loadBody();
  }

  function toggle(kind: 'tag' | 'domain', value: string): void {
    if (kind === 'tag') state.tags = state.tags.includes(value) ? state.tags.filter((t) => t !== value) : [...state.tags, value];
    else state.domain = state.domain === value ? undefined : value;
    void update();
  }

  // Load lazily: the first focus or keystroke fetches search.json, not the page load.
  input.addEventListener('focus', () => void loadIndex().catch(() => {}), { once: true });
  input.addEventListener('input', () => {
    state.q = input.value;
    void update();
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    state.q = input.value;
    void update();
    list.querySelector('a')?.focus();
  });
  sortSelect.addEventListener('change', () => {
    state.sort = sortSelect.value as Sort;
    void update(false);
  });
  more.addEventListener('click', () => {
    const first = list.children.length;
    shown += BATCH;
    render();
    list.children[first]?.querySelector('a')?.focus();
  });
  for (const [section, kind] of [
    [tagFacet, 'tag'],
    [domainFacet, 'domain'],
  ] as const) {
    section?.addEventListener('click', (e) => {
      const item = (e.target as Element).closest<HTMLElement>('[data-facet-value]');
      if (!item) return;
      e.preventDefault();
      toggle(kind, item.dataset.facetValue!);
    });
  }
  tagFacet?.querySelector('.facet-more')?.addEventListener('click', (e) => {
    if (!active) return;
    e.preventDefault();
    showAllTags = true;
    render();
  });

  if (state.q || state.tags.length || state.domain || state.sort !== 'relevance') void update();
}
