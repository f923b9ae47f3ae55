/**
 * The skill page, a file's page and the about page: fill in the site's URL in snippets when the
 * registry has no configured URL, copy buttons, files opened in place, code highlighted.
 */
import { highlightCodeBlocks, initFileViewer } from './file-viewer.ts';

const base = document.body.dataset.base ?? '/';
const placeholder = document.querySelector<HTMLElement>('[data-site-placeholder]')?.dataset.sitePlaceholder;
if (placeholder) {
  const site = `${location.origin}${base}`;
  // Text node by text node: a command's options are elements of their own (Snippet.astro).
  for (const code of document.querySelectorAll<HTMLElement>('[data-site-template] code')) {
    const texts = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode())
      node.nodeValue = (node.nodeValue ?? '').split(placeholder).join(site);
  }
}

for (const button of document.querySelectorAll<HTMLButtonElement>('[data-copy]')) {
  if (!navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    const text = document.getElementById(button.dataset.copy!)?.textContent ?? '';
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Copy failed';
    }
    setTimeout(() => (button.textContent = 'Copy'), 1500);
  });
}

initFileViewer();
const body = document.querySelector('[data-skill-body]');
if (body) highlightCodeBlocks(body);
