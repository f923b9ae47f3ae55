/**
 * Keyboard shortcuts of the catalog's search box, as on most documentation sites: `/` and Ctrl-K
 * (Cmd-K on a Mac) focus it from anywhere on the page; Esc in it clears the query (the results
 * follow through the usual `input` event), and a second Esc leaves the box.
 */

/** Whether the key press is meant for a field the reader is typing in. */
function typingElsewhere(target: EventTarget | null, box: HTMLInputElement): boolean {
  if (!(target instanceof HTMLElement) || target === box) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function installSearchShortcuts(box: HTMLInputElement): void {
  document.addEventListener('keydown', (e) => {
    const slash = e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey;
    const commandK = e.key.toLowerCase() === 'k' && (e.ctrlKey || e.metaKey) && !e.altKey;
    if (!slash && !commandK) return;
    if (slash && (document.activeElement === box || typingElsewhere(e.target, box))) return;
    e.preventDefault();
    box.focus();
    box.select();
  });
  box.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    if (box.value === '') return box.blur();
    box.value = '';
    box.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

const box = document.querySelector<HTMLInputElement>('[data-search-form] input[type="search"]');
if (box) installSearchShortcuts(box);
