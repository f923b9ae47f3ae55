/**
 * DOM for search results, built with DOM APIs only (never innerHTML): skill content is
 * untrusted. A result card is a clone of the blank card src/site/components/SkillCard.astro renders
 * into the page's `<template data-card-template>`: one template for both.
 */
import type { SearchDoc } from '../../search/index.ts';
import type { SiteUrls } from '../urls.ts';
import { displayName, formatDate, versionLabel } from '../catalog.ts';
import type { FacetEntry } from './results.ts';

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Set a slot's text (and link), or remove the slot's element — or its `remove` ancestor — when there is no value. */
function fill(
  card: HTMLElement,
  name: string,
  text: string | undefined,
  href?: string,
  remove = `[data-slot="${name}"]`,
): void {
  const slot = card.querySelector<HTMLElement>(`[data-slot="${name}"]`)!;
  if (text === undefined) return void slot.closest(remove)!.remove();
  slot.textContent = text;
  if (href !== undefined) slot.setAttribute('href', href);
}

/** What a result's card says beside the skill's own fields. */
export interface CardExtras {
  /** Which of the query's words it matched when not all (results.ts `matchNote`). */
  note?: string;
  /** Its usage figures in words. */
  usage?: string;
  /** When it last changed (ISO 8601): shown when the list is sorted by it. */
  updated?: string;
}

/** A result's card. */
export function renderCard(
  template: HTMLTemplateElement,
  doc: SearchDoc,
  urls: SiteUrls,
  localRegistry: string,
  { note, usage, updated }: CardExtras = {},
): HTMLLIElement {
  const card = template.content.firstElementChild!.cloneNode(true) as HTMLLIElement;
  card.dataset.id = doc.id;
  fill(card, 'name', displayName(doc), urls.skill(doc.id));
  fill(card, 'description', doc.description);
  fill(card, 'match', note);
  fill(card, 'usage', usage);
  fill(card, 'domain', doc.domain, doc.domain && urls.domain(doc.domain));
  const tag = card.querySelector<HTMLElement>('[data-slot="tag"]')!;
  for (const t of doc.tags ?? []) {
    const pill = tag.cloneNode() as HTMLElement;
    pill.textContent = `#${t}`;
    pill.setAttribute('href', urls.tag(t));
    tag.before(pill);
  }
  tag.remove();
  fill(card, 'version', doc.version && versionLabel(doc.version));
  fill(card, 'updated', updated && `Updated ${formatDate(updated)}`);
  if (updated) card.querySelector('[data-slot="updated"]')!.setAttribute('datetime', updated);
  fill(
    card,
    'registry',
    doc.registry && doc.registry !== localRegistry ? (doc.origin ?? `from ${doc.registry}`) : undefined,
    undefined,
    '.card-registry',
  );
  return card;
}

/** A facet list as toggle buttons (without JavaScript the same list is links to tag/domain pages). */
export function renderFacetItems(entries: readonly FacetEntry[], label: (v: string) => string): HTMLLIElement[] {
  return entries.map((e) => {
    const li = el('li');
    const b = el('button', 'facet-item');
    b.type = 'button';
    b.dataset.facetValue = e.value;
    b.setAttribute('aria-pressed', String(e.selected));
    // A long name (an aggregator's `K-Dense-AI+claude-scientific-skills/`) is cut by the column.
    b.title = label(e.value);
    b.append(
      el('span', 'facet-name', label(e.value)),
      document.createTextNode(' '),
      el('span', 'count', String(e.count)),
    );
    li.append(b);
    return li;
  });
}

export function renderChip(text: string, onRemove: () => void): HTMLButtonElement {
  const b = el('button', 'chip');
  b.type = 'button';
  b.setAttribute('aria-label', `Remove filter ${text}`);
  b.append(el('span', undefined, text), el('span', 'chip-x', '×'));
  b.addEventListener('click', onRemove);
  return b;
}

/**
 * Makes `nodes` the children of `parent`, in order, moving as few as it can: the nodes already
 * there in the right relative order (the longest such run) stay where they are, the others are
 * inserted around them and the rest removed. A node that stays keeps its layout and the focus, so
 * a list that is only reordered (ranked by meaning after words) costs the browser little.
 */
export function placeChildren(parent: Element, nodes: readonly Element[]): void {
  const wanted = new Set<Node>(nodes);
  for (const child of [...parent.childNodes]) if (!wanted.has(child)) child.remove();
  const position = new Map([...parent.children].map((child, i) => [child, i]));
  const stay = longestIncreasing(nodes.map((n) => position.get(n) ?? -1));
  let next: Element | null = null;
  for (let i = nodes.length - 1; i >= 0; i--) {
    if (!stay.has(i)) parent.insertBefore(nodes[i]!, next);
    next = nodes[i]!;
  }
}

/** The indices of a longest strictly increasing subsequence of `seq`, ignoring negative entries. */
export function longestIncreasing(seq: readonly number[]): Set<number> {
  // tails[k]: index in seq of the smallest last value of an increasing run of length k + 1.
  const tails: number[] = [];
  const previous = new Array<number>(seq.length).fill(-1);
  seq.forEach((value, i) => {
    if (value < 0) return;
    let [lo, hi] = [0, tails.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]!]! < value) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1]!;
    tails[lo] = i;
  });
  const run = new Set<number>();
  for (let i = tails.at(-1) ?? -1; i >= 0; i = previous[i]!) run.add(i);
  return run;
}
