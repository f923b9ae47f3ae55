/**
 * Small enhancements of the skill and about pages: fill in the site's URL in snippets when
 * the registry has no configured URL, copy buttons, and mark the file shown in the viewer.
 */
const base = document.body.dataset.base ?? '/';
const placeholder = document.querySelector<HTMLElement>('[data-site-placeholder]')?.dataset.sitePlaceholder;
if (placeholder) {
  const site = `${location.origin}${base}`;
  for (const code of document.querySelectorAll<HTMLElement>('[data-site-template] code')) {
    code.textContent = (code.textContent ?? '').split(placeholder).join(site);
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

function markCurrentFile(): void {
  const links = document.querySelectorAll<HTMLAnchorElement>('[data-file-link]');
  const target = location.hash.slice(1);
  const current = [...links].some((a) => a.dataset.fileLink === target) ? target : links[0]?.dataset.fileLink;
  for (const a of links) {
    if (a.dataset.fileLink === current) a.setAttribute('aria-current', 'true');
    else a.removeAttribute('aria-current');
  }
}
markCurrentFile();
window.addEventListener('hashchange', markCurrentFile);
