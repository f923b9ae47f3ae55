/**
 * Opens a skill's files in place. Every file link (`a[data-file-link]`: the file tree, relative
 * links in SKILL.md) points at the file's own page, which works without JavaScript; here a click
 * fetches that page, takes its panel and puts it in the viewer, and the address bar shows the
 * file's URL (back and forward work, a reload shows the same file). Code is highlighted once shown.
 *
 * The panel comes from our own build (file content escaped there); it is parsed with DOMParser,
 * which runs no script, and moved into the page as nodes.
 */
import { fenceLanguage } from '../languages.ts';

const PANEL = '[data-file-panel]';

const withoutHash = (url: string): string => url.replace(/#.*$/, '');

/** Text above this many lines is left unnumbered (a span per line costs the page that much DOM). */
const NUMBER_LINES_MAX = 20_000;

/** One `<span class="line">` per line, which the stylesheet numbers. */
function numberLines(code: HTMLElement): void {
  const lines = (code.textContent ?? '').replace(/\n$/, '').split('\n');
  if (lines.length > NUMBER_LINES_MAX) return;
  const out = document.createDocumentFragment();
  lines.forEach((line, i) => {
    if (i > 0) out.append('\n');
    const span = out.appendChild(document.createElement('span'));
    span.className = 'line';
    span.textContent = line;
  });
  code.replaceChildren(out);
}

/** Number and highlight the text a panel shows (loads the highlighter and the grammar on first use). */
async function highlightPanel(panel: Element): Promise<void> {
  const pre = panel.querySelector<HTMLElement>('pre.code');
  const code = pre?.querySelector('code');
  if (!pre || !code) return;
  const lang = pre.dataset.language;
  // A grammar that fails to load (offline, say) leaves the text plain, numbered.
  const highlighted = lang
    ? await import('./highlight.ts')
        .then(({ highlightElement }) => highlightElement(code, lang, true))
        .catch(() => false)
    : false;
  if (!highlighted) numberLines(code);
}

/** Highlight SKILL.md's code blocks as they scroll into view. */
export function highlightCodeBlocks(root: ParentNode): void {
  const blocks = [...root.querySelectorAll<HTMLElement>('pre > code[class^="language-"]')].filter((c) =>
    fenceLanguage(c.className.slice('language-'.length)),
  );
  if (blocks.length === 0) return;
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        const code = entry.target as HTMLElement;
        import('./highlight.ts')
          .then(({ highlightElement }) =>
            highlightElement(code, fenceLanguage(code.className.slice('language-'.length))!, false),
          )
          .catch(() => {}); // the block stays plain
      }
    },
    { rootMargin: '200px' },
  );
  for (const block of blocks) observer.observe(block);
}

/**
 * Scrolls the file tree's own box (not the page) so `row` shows: on a phone the box is 14rem high
 * and a file further down was highlighted out of sight.
 */
function revealInTree(row: HTMLElement): void {
  const tree = row.closest<HTMLElement>('.file-tree');
  if (!tree) return;
  const box = tree.getBoundingClientRect();
  const at = row.getBoundingClientRect();
  if (at.top < box.top || at.bottom > box.bottom) tree.scrollTop += at.top - box.top - (box.height - at.height) / 2;
}

export function initFileViewer(): void {
  // A file's page comes with its row marked (src/site/file-views.ts); the tree may be scrolled past it.
  const marked = document.querySelector<HTMLElement>('.file-tree a[aria-current="page"]');
  if (marked) requestAnimationFrame(() => revealInTree(marked));
  const viewer = document.querySelector<HTMLElement>('[data-viewer]');
  if (!viewer) return;
  const initial = { nodes: [...viewer.childNodes], title: document.title, url: location.href };
  let latest = 0;

  const markCurrent = (url: string): void => {
    for (const a of document.querySelectorAll<HTMLAnchorElement>('.file-tree a[data-file-link]')) {
      if (a.href === url) {
        a.setAttribute('aria-current', 'page');
        // Once laid out with the page's styles (the box's height is the phone's).
        requestAnimationFrame(() => revealInTree(a));
      } else a.removeAttribute('aria-current');
    }
  };

  /** Show the file whose page is `url`; falls back to loading that page when anything fails. */
  const open = async (url: string, push: boolean): Promise<void> => {
    const request = ++latest;
    viewer.setAttribute('aria-busy', 'true');
    try {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const page = new DOMParser().parseFromString(await res.text(), 'text/html');
      const panel = page.querySelector(PANEL);
      if (!panel) throw new Error('no file panel');
      if (request !== latest) return;
      viewer.replaceChildren(document.adoptNode(panel));
      if (push) history.pushState({ file: url }, '', url);
      document.title = page.title;
      markCurrent(url);
      (panel as HTMLElement).focus({ preventScroll: true });
      viewer.scrollIntoView({ block: 'nearest' });
      void highlightPanel(panel);
    } catch {
      location.assign(url);
    } finally {
      if (request === latest) viewer.removeAttribute('aria-busy');
    }
  };

  document.addEventListener('click', (e) => {
    const link = (e.target as Element | null)?.closest?.<HTMLAnchorElement>('a[data-file-link]');
    if (!link || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    if (link.href !== withoutHash(location.href)) void open(link.href, true);
  });

  // Entries this script pushed carry the file's URL; going back to the page's own URL shows
  // what the viewer first held. Fragment navigation (`#files`) changes neither.
  window.addEventListener('popstate', (e) => {
    const file = (e.state as { file?: string } | null)?.file;
    if (file) return void open(file, false);
    if (withoutHash(location.href) !== withoutHash(initial.url)) return;
    latest++;
    viewer.replaceChildren(...initial.nodes);
    document.title = initial.title;
    markCurrent(viewer.querySelector(PANEL) ? withoutHash(initial.url) : '');
  });

  const panel = viewer.querySelector(PANEL);
  if (panel) void highlightPanel(panel);
}
