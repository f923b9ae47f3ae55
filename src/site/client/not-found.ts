/**
 * The 404 page, for a link to a skill's page that is no longer there: when the feed's
 * `changes.json` holds the skill's tombstone, the page says when it was removed; either way the
 * search box is filled with the skill's name in words, so one click searches for another skill
 * for the task. Without script the page stays the plain 404 it is.
 */
import { formatDate } from '../catalog.ts';

/** The skill id a site path names (`<base>skills/<id>/…`), or undefined for any other path. */
export function skillIdOf(pathname: string, base: string): string | undefined {
  if (!pathname.startsWith(base)) return undefined;
  const match = /^skills\/([^/]+)(?:\/|$)/.exec(pathname.slice(base.length));
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}

/** When `changes` (the feed's `changes.json`, untrusted) says skill `id` was removed: the date, else undefined. */
export function removedOn(changes: unknown, id: string): string | undefined {
  const list = (changes as { changes?: unknown } | null)?.changes;
  if (!Array.isArray(list)) return undefined;
  const entry = list.find((c): c is { id: string; change: string; at?: unknown } => {
    const e = c as { id?: unknown; change?: unknown } | null;
    return e?.id === id && e.change === 'removed';
  });
  return entry && typeof entry.at === 'string' ? formatDate(entry.at) : undefined;
}

/** A skill id as words to search for: `pdf-form_filler` → `pdf form filler`. */
export const searchWordsOf = (id: string): string => id.replace(/[-_.]+/g, ' ').trim();

async function explain(section: HTMLElement): Promise<void> {
  const id = skillIdOf(location.pathname, section.dataset.base ?? '/');
  if (!id) return;
  const box = section.querySelector<HTMLInputElement>('input[type="search"]');
  if (box && !box.value) box.value = searchWordsOf(id);
  const changes = section.dataset.changes;
  if (!changes) return;
  const response = await fetch(changes).catch(() => undefined);
  const date = response?.ok ? removedOn(await response.json().catch(() => undefined), id) : undefined;
  if (!date) return;
  const eyebrow = section.querySelector('.eyebrow');
  if (eyebrow) eyebrow.textContent = 'Removed';
  section.querySelector('h1')!.textContent = `“${id}” was removed from this catalog`;
  section.querySelector('.lead')!.textContent = `It was removed on ${date}. Search for another skill for the task.`;
}

// Imported by the 404 page; the functions above are also unit-tested outside a browser.
const section = typeof document === 'undefined' ? null : document.querySelector<HTMLElement>('[data-not-found]');
if (section) void explain(section);
