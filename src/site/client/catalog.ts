/**
 * The catalog's search, as you type: the controller. Progressive enhancement of the
 * server-rendered list:
 *
 * - `search.json` (metadata index with card fields) is fetched on first focus, keystroke,
 *   filter click, or when the URL already holds a query; nothing is fetched before.
 * - `cards.json` (update times, usage figures) when a sort or usage figures need it, and the
 *   site's `folders/skills.json` (each folder group's skill ids: the search index has no
 *   folders) in the background of the first search where folders are a facet.
 * - `search-body.json` (SKILL.md words) follows in the background after the first query, so
 *   words that only appear in a skill's body are found too; results refresh when it arrives.
 * - State lives in the URL (./url-state.ts); what a state shows is ./results.ts; the DOM it is
 *   drawn with is ./render.ts.
 */
import type { UsageFigures } from '../../model/usage.ts';
import { usageText } from '../usage.ts';
import { queryWords, SkillSearch, usesMeaning, type MeaningIndex, type SearchDoc } from '../../search/index.ts';
import { SiteMeaning } from './meaning.ts';
import { siteUrls, type SiteUrls } from '../urls.ts';
import { PAGE_SIZE, TAGS_SHOWN } from '../catalog.ts';
import { placeChildren, renderCard, renderChip, renderFacetItems } from './render.ts';
import {
  domainOfDoc,
  emptyText,
  facetEntries,
  keepsRankOrder,
  matches,
  registryOfDoc,
  results,
  resultsSummary,
  tagsOfDoc,
  unfolded,
  type ResultsContext,
} from './results.ts';
import { isActive, readState, stateQuery, toggle, type CatalogState, type FacetKind, type Sort } from './url-state.ts';

/**
 * While typing, results come from the metadata index at once; the body index (whose prefix
 * and typo expansion of short words costs more) refines them once typing pauses this long.
 */
const REFINE_AFTER_MS = 150;

/** The elements of src/site/components/Catalog.astro the controller drives. */
function elements(root: HTMLElement) {
  const one = <T extends Element>(selector: string): T => root.querySelector<T>(selector)!;
  return {
    form: one<HTMLFormElement>('[data-search-form]'),
    input: one<HTMLInputElement>('input[type="search"]'),
    list: one<HTMLOListElement>('#results'),
    count: one<HTMLElement>('[data-results-count]'),
    sortBox: one<HTMLElement>('[data-sort]'),
    sortSelect: one<HTMLSelectElement>('[data-sort] select'),
    empty: one<HTMLElement>('[data-empty]'),
    more: one<HTMLButtonElement>('[data-more]'),
    pagination: one<HTMLElement>('[data-pagination]'),
    activeFilters: one<HTMLElement>('[data-active-filters]'),
    card: one<HTMLTemplateElement>('template[data-card-template]'),
    // Absent when the catalog has nothing to filter by.
    tagFacet: root.querySelector<HTMLElement>('[data-facet="tag"]'),
    domainFacet: root.querySelector<HTMLElement>('[data-facet="domain"]'),
    folderFacet: root.querySelector<HTMLElement>('[data-facet="folder"]'),
    registryFacet: root.querySelector<HTMLElement>('[data-facet="registry"]'),
  };
}

class Catalog {
  readonly #el: ReturnType<typeof elements>;
  readonly #urls: SiteUrls;
  readonly #feed: string;
  readonly #model: string;
  readonly #localRegistry: string;
  #state: CatalogState = readState(location.search);
  #index: SkillSearch | undefined;
  #meaning: SiteMeaning | undefined;
  /** Closeness in meaning, ready for this query. */
  #meaningFor: { q: string; index: MeaningIndex } | undefined;
  #loading: Promise<SkillSearch> | undefined;
  #bodyLoading: Promise<void> | undefined;
  /** Update times from cards.json, fetched only when someone sorts by them. */
  #updatedAt: Map<string, string> | undefined;
  /** Usage figures from cards.json, when the build published any (`data-usage`). */
  #usage: Map<string, UsageFigures> | undefined;
  /** Each skill's folder group, where folders are a facet (none: not in a folder group). */
  #folders: Map<string, string> | undefined;
  #cardsLoading: Promise<void> | undefined;
  #foldersLoading: Promise<void> | undefined;
  readonly #withUsage: boolean;
  #shown = PAGE_SIZE;
  /** Whether the reader opened the fold of weaker matches. */
  #foldOpen = false;
  /** Results before the fold in the list on screen (all of them when nothing is folded). */
  #beforeFold = 0;
  #active = false;
  #showAllTags = false;
  /** Whether the catalog's meaning was asked for once the page is idle (after the first search). */
  #warmed = false;
  #refineTimer: ReturnType<typeof setTimeout> | undefined;
  /** Whether the URL still shows an earlier state: written when typing pauses, not per keystroke. */
  #urlBehind = false;
  /** The cards on screen, by skill id, note and usage line: a later render reuses them instead of drawing them again. */
  #cards = new Map<string, HTMLLIElement>();
  /** What each facet list and the chips show, so a render that changes nothing there writes nothing. */
  readonly #drawn = new Map<HTMLElement, string>();

  constructor(root: HTMLElement) {
    this.#el = elements(root);
    this.#urls = siteUrls(document.body.dataset.base ?? '/');
    this.#feed = root.dataset.feed!;
    this.#model = root.dataset.model ?? '';
    this.#localRegistry = root.dataset.registry ?? '';
    this.#withUsage = root.dataset.usage !== undefined;
    this.#el.input.value = this.#state.q;
    this.#el.sortSelect.value = this.#state.sort;
    this.#el.sortBox.hidden = false;
    this.#bind();
    if (isActive(this.#state)) void this.#update();
  }

  async #fetchJson(name: string): Promise<unknown> {
    const res = await fetch(`${this.#feed}${name}`);
    if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
    return res.json();
  }

  #loadIndex(): Promise<SkillSearch> {
    this.#loading ??= this.#fetchJson('search.json').then((json) => {
      const index = SkillSearch.load(json);
      this.#meaning = new SiteMeaning(this.#model, this.#feed, index.ids);
      return (this.#index = index);
    });
    this.#loading.catch(() => {
      this.#loading = undefined;
      this.#el.count.textContent = 'Search is unavailable right now: the search index could not be loaded.';
    });
    return this.#loading;
  }

  /** Update times and usage figures from cards.json, once. */
  #loadCards(): Promise<void> {
    this.#cardsLoading ??= this.#fetchJson('cards.json')
      .catch(() => ({ skills: [] }))
      .then((json) => {
        const { skills } = json as { skills: Array<{ id: string; updated_at: string; usage?: UsageFigures }> };
        this.#updatedAt = new Map(skills.map((c) => [c.id, c.updated_at]));
        if (this.#withUsage) this.#usage = new Map(skills.flatMap((c) => (c.usage ? [[c.id, c.usage] as const] : [])));
      });
    return this.#cardsLoading;
  }

  /** Each skill's folder group, where folders are a facet: the site's folders/skills.json, once. */
  #loadFolders(): Promise<void> {
    const src = this.#el.folderFacet?.dataset.src;
    const fetchGroups = (): Promise<Record<string, string[]>> =>
      src ? fetch(src).then((res) => (res.ok ? res.json() : {})) : Promise.resolve({});
    this.#foldersLoading ??= fetchGroups()
      .catch(() => ({}))
      .then((byFolder) => {
        const folders = new Map<string, string>();
        for (const [folder, ids] of Object.entries(byFolder)) for (const id of ids) folders.set(id, folder);
        this.#folders = folders;
      });
    return this.#foldersLoading;
  }

  #loadBody(): void {
    if (this.#bodyLoading || !this.#index) return;
    const index = this.#index;
    this.#bodyLoading = this.#fetchJson('search-body.json')
      .then((json) => {
        index.attachBody(json);
        if (this.#state.q.trim()) this.#render();
      })
      // Metadata search still works; body-only words are just not found.
      .catch(() => {});
  }

  #renderFacet(
    section: HTMLElement | null,
    docs: readonly SearchDoc[],
    pick: typeof tagsOfDoc,
    selected: string[],
    limit: number,
    label: (v: string) => string,
  ): void {
    if (!section) return;
    const entries = facetEntries(docs, pick, selected);
    const shown = entries.slice(0, limit);
    const drawn = `${entries.length}|${shown.map((e) => `${e.value}\t${e.count}\t${e.selected}`).join('\n')}`;
    if (this.#drawn.get(section) === drawn) return;
    this.#drawn.set(section, drawn);
    // No heading over an empty list: the results may have no tag or domain at all.
    section.hidden = entries.length === 0;
    // A filter chosen from the keyboard keeps the focus: its button is drawn anew here.
    const focused = section.contains(document.activeElement)
      ? (document.activeElement as HTMLElement).dataset.facetValue
      : undefined;
    section.querySelector('ul')!.replaceChildren(...renderFacetItems(shown, label));
    if (focused !== undefined)
      section.querySelector<HTMLElement>(`[data-facet-value="${CSS.escape(focused)}"]`)?.focus();
    const moreLink = section.querySelector<HTMLElement>('.facet-more');
    if (moreLink) moreLink.hidden = entries.length <= limit;
  }

  /** `quick`: metadata index only (while typing); `full`: with the body index when loaded. */
  #render(mode: 'quick' | 'full' = 'full'): void {
    const index = this.#index;
    if (!index) return;
    clearTimeout(this.#refineTimer);
    if (mode === 'full') this.#writeUrl();
    const started = performance.now();
    const state = this.#state;
    const metadataOnly = mode === 'quick' || !index.hasBody;
    const meaning = this.#meaningFor?.q === state.q.trim() ? this.#meaningFor.index : undefined;
    // The notes of the cards shown only: the first ones, unless a filter or another order picks others.
    const noted = keepsRankOrder(state) ? this.#shown : undefined;
    const { docs: matched, notes, strong, meaningAlone } = matches(index, state.q, metadataOnly, meaning, noted);
    const ctx = { updatedAt: this.#updatedAt, usage: this.#usage, folders: this.#folders };
    const docs = results(matched, state, ctx);
    const folding = state.sort === 'relevance' && state.q.trim() !== '';
    const strongIds = folding ? new Set(matched.slice(0, strong).map((d) => d.id)) : undefined;
    // Counts are over what the list shows: the strong matches while the weaker ones are folded.
    const listed = (all: readonly SearchDoc[]): readonly SearchDoc[] =>
      strongIds ? all.slice(0, unfolded(all, strongIds, this.#foldOpen)) : all;
    // Tag counts are over the results; the one-at-a-time facets' counts are worked out apart.
    this.#renderFacet(
      this.#el.tagFacet,
      listed(docs),
      tagsOfDoc,
      state.tags,
      this.#showAllTags ? Infinity : TAGS_SHOWN,
      (v) => `#${v}`,
    );
    this.#renderOneOf('domain', matched, docs, ctx, listed);
    this.#renderOneOf('registry', matched, docs, ctx, listed);
    this.#renderFolderFacet(matched, docs, ctx, listed);
    this.#renderList(docs, notes, strongIds, meaningAlone);
    this.#renderChips();
    const list = this.#el.list;
    list.dataset.searchMs = (performance.now() - started).toFixed(2);
    // A folder and a registry show after the domain (`|finance+folder:git+registry:acme|`), only when chosen.
    const folder = state.folder ? `+folder:${state.folder}` : '';
    const registry = state.registry ? `+registry:${state.registry}` : '';
    list.dataset.state = `${state.q}|${state.tags.join(',')}|${state.domain ?? ''}${folder}${registry}|${state.sort}|${metadataOnly ? 'meta' : 'body'}${meaning ? '+meaning' : ''}`;
  }

  /**
   * A facet of one value at a time (a domain, a registry): its counts leave out the chosen value,
   * so switching shows what each other value would give.
   */
  #renderOneOf(
    kind: 'domain' | 'registry',
    matched: readonly SearchDoc[],
    docs: readonly SearchDoc[],
    ctx: ResultsContext,
    listed: (all: readonly SearchDoc[]) => readonly SearchDoc[],
  ): void {
    const chosen = this.#state[kind];
    const base = chosen ? results(matched, this.#state, { ...ctx, ignore: kind }) : docs;
    const [section, pick] =
      kind === 'domain' ? [this.#el.domainFacet, domainOfDoc] : [this.#el.registryFacet, registryOfDoc];
    this.#renderFacet(section, listed(base), pick, chosen ? [chosen] : [], Infinity, (v) => v);
  }

  /** Folder counts ignore the chosen folder, as domain counts do; drawn once the folders are here. */
  #renderFolderFacet(
    matched: readonly SearchDoc[],
    docs: readonly SearchDoc[],
    ctx: ResultsContext,
    listed: (all: readonly SearchDoc[]) => readonly SearchDoc[],
  ): void {
    const folders = this.#folders;
    if (!folders) return;
    const { folder } = this.#state;
    const base = listed(folder ? results(matched, this.#state, { ...ctx, ignore: 'folder' }) : docs);
    const pick = (d: SearchDoc): readonly string[] => {
      const group = folders.get(d.id);
      return group ? [group] : [];
    };
    this.#renderFacet(this.#el.folderFacet, base, pick, folder ? [folder] : [], Infinity, (v) => `${v}/`);
  }

  /** `strongIds`: the strong matches, when weaker ones are folded (a query ranked by relevance). */
  #renderList(
    docs: readonly SearchDoc[],
    notes: ReadonlyMap<string, string>,
    strongIds?: ReadonlySet<string>,
    meaningAlone = false,
  ): void {
    const { list, count, empty, more, pagination } = this.#el;
    const n = strongIds ? unfolded(docs, strongIds, this.#foldOpen) : docs.length;
    const weaker = docs.length - n;
    this.#beforeFold = n;
    // A later render (the body refinement, a submit's update) must not take the focus away from
    // a result the reader moved to: it goes back to the same skill's card when it is still listed.
    const focused = list.contains(document.activeElement)
      ? document.activeElement!.closest<HTMLElement>('li[data-id]')?.dataset.id
      : undefined;
    placeChildren(list, this.#cardsFor(docs.slice(0, Math.min(n, this.#shown)), notes));
    if (focused && !list.contains(document.activeElement))
      list.querySelector<HTMLElement>(`li[data-id="${CSS.escape(focused)}"] a`)?.focus();
    setText(count, resultsSummary(n, this.#state.q, weaker, meaningAlone));
    if (n === 0) setText(empty, emptyText(this.#state));
    setHidden(empty, n > 0);
    setHidden(more, n <= this.#shown && weaker === 0);
    setText(
      more,
      n > this.#shown
        ? `Show more (${n - Math.min(n, this.#shown)} left)`
        : `Show ${weaker} weaker ${weaker === 1 ? 'match' : 'matches'}`,
    );
    if (more.dataset.fold !== (n > this.#shown ? '' : 'weaker')) more.dataset.fold = n > this.#shown ? '' : 'weaker';
    setHidden(pagination, true);
  }

  /** The cards of `docs`: those on screen with the same note, usage line and date as they are, the others drawn. */
  #cardsFor(docs: readonly SearchDoc[], notes: ReadonlyMap<string, string>): HTMLLIElement[] {
    const cards = new Map<string, HTMLLIElement>();
    const shown = docs.map((d) => {
      const note = notes.get(d.id);
      const usage = usageText(this.#usage?.get(d.id), this.#localRegistry);
      const updated = this.#state.sort === 'updated' ? this.#updatedAt?.get(d.id) : undefined;
      const key = `${d.id}\0${note ?? ''}\0${usage ?? ''}\0${updated ?? ''}`;
      const card =
        this.#cards.get(key) ?? renderCard(this.#el.card, d, this.#urls, this.#localRegistry, { note, usage, updated });
      cards.set(key, card);
      return card;
    });
    this.#cards = cards;
    return shown;
  }

  #renderChips(): void {
    const { registry, domain, folder, tags } = this.#state;
    const drawn = [registry ?? '', domain ?? '', folder ?? '', ...tags].join('\n');
    if (this.#drawn.get(this.#el.activeFilters) === drawn) return;
    this.#drawn.set(this.#el.activeFilters, drawn);
    const chips: HTMLElement[] = [];
    if (registry) chips.push(renderChip(registry, () => this.#toggle('registry', registry)));
    if (domain) chips.push(renderChip(domain, () => this.#toggle('domain', domain)));
    if (folder) chips.push(renderChip(`${folder}/`, () => this.#toggle('folder', folder)));
    for (const t of tags) chips.push(renderChip(`#${t}`, () => this.#toggle('tag', t)));
    // A chip removed from the keyboard hands the focus on: to the chip now in its place, else the search box.
    const focused = [...this.#el.activeFilters.children].indexOf(document.activeElement!);
    this.#el.activeFilters.replaceChildren(...chips);
    this.#el.activeFilters.hidden = chips.length === 0;
    if (focused >= 0) (chips[Math.min(focused, chips.length - 1)] ?? this.#el.input).focus();
  }

  async #update(resetShown = true): Promise<void> {
    if (resetShown) [this.#shown, this.#foldOpen] = [PAGE_SIZE, false];
    this.#urlBehind = true;
    this.#active = true;
    if (!this.#index) {
      this.#el.count.textContent = 'Loading search…';
      await this.#loadIndex();
    }
    const wantsUsage = this.#withUsage && !this.#usage;
    if ((this.#state.sort === 'updated' && !this.#updatedAt) || wantsUsage) await this.#loadCards();
    if (this.#state.folder && !this.#folders) await this.#loadFolders();
    // The folder facet's counts follow the results once the folders are here; until then it
    // shows the catalog's, and the results are drawn at once.
    else if (this.#el.folderFacet && !this.#folders) void this.#loadFolders().then(() => this.#render());
    const q = this.#state.q.trim();
    const words = q ? queryWords(q).length : 0;
    // Ranked by meaning now when all it needs is here: drawn once, not by words first. Else its
    // fetches start before the results by words are drawn: they arrive sooner.
    const meaningNow = usesMeaning(words) && this.#meaningNow(q);
    if (q && this.#index!.hasBody && !meaningNow) {
      this.#render('quick');
      this.#refineTimer = setTimeout(() => this.#render('full'), REFINE_AFTER_MS);
    } else this.#render();
    if (q) this.#afterSearch(words);
  }

  /**
   * After a search: the body index loads; once the page is idle, what every query ranked by
   * meaning needs; and while a request of several words is typed, its words' token shards, so
   * that they are here when typing stops.
   */
  #afterSearch(words: number): void {
    this.#loadBody();
    if (!this.#meaning) return;
    if (!this.#warmed) {
      this.#warmed = true;
      const meaning = this.#meaning;
      whenIdle(() => meaning.warm());
    }
    if (usesMeaning(words + 1)) this.#meaning.prefetch(this.#state.q);
  }

  /**
   * Shows the state in the URL (a shared link gives the same results). Once typing pauses, with
   * the full results: each `replaceState` costs Chromium milliseconds and a favicon request.
   */
  #writeUrl(): void {
    if (!this.#urlBehind) return;
    this.#urlBehind = false;
    history.replaceState(null, '', stateQuery(this.#state) || location.pathname);
  }

  /** Whether `q` can be ranked by meaning at once; when not, ranks it once what it needs is fetched. */
  #meaningNow(q: string): boolean {
    if (this.#meaningFor?.q === q) return true;
    const index = this.#meaning?.readyFor(q);
    if (index) this.#meaningFor = { q, index };
    else this.#loadMeaning(q);
    return index !== undefined;
  }

  /** Ranks `q` by meaning too once the catalog's meaning and the query's token shards are here. */
  #loadMeaning(q: string): void {
    if (!this.#meaning || this.#meaningFor?.q === q) return;
    this.#meaning
      .forQuery(q)
      .then((index) => {
        if (this.#state.q.trim() !== q) return;
        this.#meaningFor = { q, index };
        this.#render();
      })
      // Words still rank it.
      .catch(() => {});
  }

  #toggle(kind: FacetKind, value: string): void {
    this.#state = toggle(this.#state, kind, value);
    void this.#update();
  }

  #bind(): void {
    const { input, form, list, sortSelect, more, tagFacet, domainFacet, folderFacet, registryFacet } = this.#el;
    // Load lazily: the first focus or keystroke fetches search.json, not the page load.
    input.addEventListener('focus', () => void this.#loadIndex().catch(() => {}), { once: true });
    // Leaving before typing paused: the history entry keeps the query, so Back shows its results.
    addEventListener('pagehide', () => this.#writeUrl());
    list.addEventListener('click', () => this.#writeUrl(), { capture: true });
    input.addEventListener('input', () => {
      this.#state = { ...this.#state, q: input.value };
      void this.#update();
    });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.#state = { ...this.#state, q: input.value };
      // Focus the first result once the list is this query's: while the search index loads, the
      // list on screen is still the unfiltered one, and its first card is not a result.
      void this.#update().then(() => {
        if (document.activeElement === input || document.activeElement === document.body)
          list.querySelector('a')?.focus();
      });
    });
    sortSelect.addEventListener('change', () => {
      this.#state = { ...this.#state, sort: sortSelect.value as Sort };
      void this.#update(false);
    });
    more.addEventListener('click', () => {
      const first = list.children.length;
      if (this.#beforeFold <= this.#shown) this.#foldOpen = true;
      else this.#shown += PAGE_SIZE;
      this.#render();
      list.children[first]?.querySelector('a')?.focus();
    });
    for (const [section, kind] of [
      [tagFacet, 'tag'],
      [domainFacet, 'domain'],
      [folderFacet, 'folder'],
      [registryFacet, 'registry'],
    ] as const) {
      section?.addEventListener('click', (e) => {
        const item = (e.target as Element).closest<HTMLElement>('[data-facet-value]');
        if (!item) return;
        e.preventDefault();
        this.#toggle(kind, item.dataset.facetValue!);
      });
    }
    tagFacet?.querySelector('.facet-more')?.addEventListener('click', (e) => {
      if (!this.#active) return;
      e.preventDefault();
      this.#showAllTags = true;
      this.#render();
    });
  }
}

/** Runs `task` once the page is idle (soon after, where the browser cannot tell). */
function whenIdle(task: () => void): void {
  if ('requestIdleCallback' in window) requestIdleCallback(task, { timeout: 2000 });
  else setTimeout(task, 200);
}

/** Writes an element's text only when it changes: every write costs the browser style and layout. */
function setText(el: HTMLElement, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

function setHidden(el: HTMLElement, hidden: boolean): void {
  if (el.hidden !== hidden) el.hidden = hidden;
}

const root = document.querySelector<HTMLElement>('.catalog');
if (root) new Catalog(root);
