/**
 * Pages that send a visitor on to the page listing what a URL names: a URL of the site trimmed
 * by hand (`skills/<id>/files/scripts/run.py/` → `skills/<id>/files/scripts/` →
 * `skills/<id>/files/`) leads to the skill's file tree instead of a 404. Each is a few hundred
 * bytes written beside the file pages, not a page Astro renders: 1,650 skills have some 2,500
 * such folders.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { resolveInside } from '../lib/fs.ts';
import type { FeedSkill } from '../model/feed.ts';
import type { SiteUrls } from './urls.ts';

const escapeAttr = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A page that redirects to `target` at once (a `meta` refresh: static hosts cannot all send a
 * 301, and the site's CSP allows no inline script), with a link for a reader whose browser does
 * not follow it, and kept out of search engines' indexes.
 */
export function redirectHtml(target: string, text: string): string {
  const to = escapeAttr(target);
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeAttr(text)}</title>` +
    `<meta http-equiv="refresh" content="0;url=${to}"><meta name="robots" content="noindex">` +
    `<link rel="canonical" href="${to}"></head>` +
    `<body><p><a href="${to}">${escapeAttr(text)}</a></p></body></html>\n`
  );
}

export interface FolderRedirect {
  /** The folder below the skill's `files/`: '' for `files/` itself, `scripts`, `scripts/lib`. */
  folder: string;
  html: string;
}

/**
 * The redirects of a skill's `files/` folder and of every folder of its files, to the file tree
 * on the skill's page. None for a folder holding a file named `index.html`: that file's page
 * (`<folder>/index.html/`) takes the place the redirect would have.
 */
export function fileFolderRedirects(skill: FeedSkill, urls: SiteUrls): FolderRedirect[] {
  const folders = new Set<string>(['']);
  const taken = new Set<string>();
  for (const f of skill.files) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
    if (parts.at(-1) === 'index.html') taken.add(parts.slice(0, -1).join('/'));
  }
  const html = redirectHtml(`${urls.skill(skill.card.id)}#files`, `The files of ${skill.card.name}`);
  return [...folders]
    .filter((folder) => !taken.has(folder))
    .sort()
    .map((folder) => ({ folder, html }));
}

/** Where a folder's redirect goes below a skill's folder of the site (`skills/<id>/`). */
export function folderRedirectFile(skillDir: string, folder: string): string {
  const files = path.join(skillDir, 'files');
  return path.join(folder === '' ? files : resolveInside(files, folder), 'index.html');
}

/** Writes a skill's folder redirects into its folder of the site. */
export function writeFolderRedirects(skill: FeedSkill, skillDir: string, urls: SiteUrls): void {
  for (const r of fileFolderRedirects(skill, urls)) {
    const file = folderRedirectFile(skillDir, r.folder);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, r.html);
  }
}
