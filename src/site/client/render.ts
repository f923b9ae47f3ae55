/**
 * DOM for search results, built with DOM APIs only (never innerHTML): skill content is
 * untrusted. Mirrors src/components/SkillCard.astro.
 */
import type { SearchDoc } from '../../search/index.ts';
import type { SiteUrls } from '../urls.ts';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function link(href: string, className: string | undefined, text: string): HTMLAnchorElement {
  const a = el('a', className, text);
  a.href = href;
  return a;
}

export function renderCard(doc: SearchDoc, urls: SiteUrls, localRegistry: string): HTMLLIElement {
  const li = el('li', 'card');
  li.dataset.id = doc.id;
  const title = el('h3', 'card-title');
  title.append(link(urls.skill(doc.id), undefined, doc.name));
  const meta = el('div', 'card-meta');
  if (doc.domain) meta.append(link(urls.domain(doc.domain), 'pill pill-domain', doc.domain));
  for (const tag of doc.tags ?? []) meta.append(link(urls.tag(tag), 'pill', `#${tag}`));
  const foot = el('div', 'card-foot');
  if (doc.version) foot.append(el('span', 'card-version', `v${doc.version}`));
  if (doc.registry && doc.registry !== localRegistry) foot.append(el('span', 'card-registry', `from ${doc.registry}`));
  li.append(title, el('p', 'card-desc', doc.description), meta, foot);
  return li;
}

export interface FacetEntry {
  value: string;
  count: number;
  selected: boolean;
}

/** A facet list as toggle buttons (without JavaScript the same list is links to tag/domain pages). */
export function renderFacetItems(entries: FacetEntry[], label: (v: string) => string): HTMLLIElement[] {
  return entries.map((e) => {
    const li = el('li');
    const b = el('button', 'facet-item');
    b.type = 'button';
    b.dataset.facetValue = e.value;
    b.setAttribute('aria-pressed', String(e.selected));
    b.append(el('span', 'facet-name', label(e.value)), document.createTextNode(' '), el('span', 'count', String(e.count)));
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
