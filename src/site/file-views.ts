/**
 * One page per file of every skill: `skills/<id>/files/<path>/`. A plain link opens it without
 * JavaScript; on a skill page the script fetches it and moves its panel in place
 * (src/site/client/file-viewer.ts), so the skill page itself carries no file content.
 *
 * Astro renders one template per skill (src/site/pages/skills/[id]/file-template.astro: layout, the
 * skill's name and its file tree) holding slots marked with this build's random marker; here
 * each file's panel is filled in. Astro's router cannot name pages after arbitrary file paths
 * (`#`, `?`, `%` in names), and filling a template costs a fraction of rendering a page.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FeedFile, FeedSkill } from '../model/feed.ts';
import type { FileCache } from '../lib/file-cache.ts';
import { resolveInside } from '../lib/fs.ts';
import { sha256Hex } from '../lib/hash.ts';
import { pMap } from '../lib/p-map.ts';
import { isActiveFile } from './headers.ts';
import { formatCount } from './catalog.ts';
import { formatBytes } from '../lib/size-text.ts';
import { readFeedFile } from './feed-data.ts';
import { isProse, languageFor } from './languages.ts';
import { writeFolderRedirects } from './redirects.ts';
import { slot } from './site-data.ts';
import { breakablePathHtml, listFiles } from './skill-view.ts';
import type { SiteUrls } from './urls.ts';

/** Text shown in a file view is cut here; the file's own link always has all of it. */
export const VIEWER_MAX_BYTES = 256 * 1024;

/** Where the template of a skill's file pages is rendered (and removed once they are written). */
export const TEMPLATE_DIR = 'file-template';

/** Images a browser shows safely in `<img>` (SVG in `<img>` runs no script). */
const IMAGE_MIME = /^image\/(png|jpe?g|gif|webp|avif|svg\+xml|bmp|x-icon|vnd\.microsoft\.icon)$/;

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function fileBody(feedDir: string, skill: FeedSkill, file: FeedFile, url: string): string {
  if (file.skipped) return `<p class="file-note">Not stored in the catalog: ${escapeHtml(file.skipped.reason)}</p>`;
  if (IMAGE_MIME.test(file.mime))
    return `<div class="file-image"><img src="${escapeHtml(url)}" alt="${escapeHtml(file.path)}" decoding="async"></div>`;
  if (file.encoding !== 'utf-8')
    return `<p class="file-note">Binary file (${formatBytes(file.size)}, ${escapeHtml(file.mime)}): download it to open it.</p>`;
  const bytes = readFeedFile(feedDir, skill.card.id, file);
  const truncated = bytes.length > VIEWER_MAX_BYTES;
  const text = (truncated ? bytes.subarray(0, VIEWER_MAX_BYTES) : bytes).toString('utf8');
  const fileName = file.path.slice(file.path.lastIndexOf('/') + 1);
  const language = languageFor(fileName);
  const lang = language ? ` data-language="${language}"` : '';
  // Prose wraps at the view's width; code keeps its lines and scrolls sideways.
  const wrap = isProse(fileName) ? ' wrap' : '';
  const note = truncated
    ? `<p class="file-note">Showing the first ${formatBytes(VIEWER_MAX_BYTES)}; download the file for all of it.</p>`
    : '';
  // Plain escaped text: the browser numbers and highlights the lines when it shows them.
  return `<pre class="code${wrap}" tabindex="0"${lang}><code>${escapeHtml(text)}</code></pre>${note}`;
}

/**
 * A file's panel: path, facts, links to its bytes, and its content. Active types (HTML, SVG,
 * XML, JavaScript) are offered as downloads only: opened from the site's origin they would run.
 */
export function filePanel(feedDir: string, skill: FeedSkill, file: FeedFile, urls: SiteUrls): string {
  const url = urls.file(skill.card.id, file.path);
  const facts = [
    file.skipped ? 'not stored' : formatBytes(file.size),
    file.tokens !== undefined ? `${formatCount(file.tokens)} tokens` : '',
    file.mime,
  ]
    .filter(Boolean)
    .join(' · ');
  const name = escapeHtml(file.path.slice(file.path.lastIndexOf('/') + 1));
  const links = file.skipped
    ? ''
    : `<span class="file-actions">${isActiveFile(file.path) ? '' : `<a class="button small" href="${escapeHtml(url)}" data-raw-link>Raw</a>`}<a class="button small" href="${escapeHtml(url)}" download="${name}" data-download-link>Download</a></span>`;
  return [
    `<section class="file-panel" id="file-view" tabindex="-1" aria-labelledby="file-view-title" data-file-panel data-path="${escapeHtml(file.path)}">`,
    `<header class="file-head"><h2 class="file-path" id="file-view-title">${breakablePathHtml(file.path, escapeHtml)}</h2><span class="file-facts">${escapeHtml(facts)}</span>${links}</header>`,
    fileBody(feedDir, skill, file, url),
    '</section>',
  ].join('');
}

/** Fill the template's slots. Replacements are functions: `$&` in a file must stay text. */
export function fillTemplate(template: string, marker: string, title: string, panel: string, current?: number): string {
  let html = template
    .replaceAll(slot(marker, 'title'), () => escapeHtml(title))
    .replace(slot(marker, 'panel'), () => panel);
  if (current !== undefined)
    html = html.replaceAll(`data-file-link="${current}"`, () => `data-file-link="${current}" aria-current="page"`);
  return html;
}

/** What the file pages of one build share: where templates are and pages go, the URLs, the marker, the cache. */
export interface FileViewContext {
  /** Astro's output, holding the templates (`skills/<id>/file-template/`). */
  templatesDir: string;
  /** The site being assembled: the pages go to `skills/<id>/files/<path>/`. */
  siteDir: string;
  feedDir: string;
  /** Skills whose stored files are read from another feed folder (the output being replaced: `BuildSiteOptions.keptFeedFiles`). */
  kept?: { feedDir: string; ids: ReadonlySet<string> };
  urls: SiteUrls;
  marker: string;
  /** Where each page is kept for later builds, under its key (src/site/page-cache.ts). */
  cache: FileCache;
  key: (id: string, filePath: string) => string;
}

async function writeSkillFileViews(skill: FeedSkill, ctx: FileViewContext): Promise<number> {
  const id = skill.card.id;
  const template = await readFile(path.join(ctx.templatesDir, 'skills', id, TEMPLATE_DIR, 'index.html'), 'utf8');
  const files = listFiles(skill, ctx.urls);
  const feedDir = ctx.kept?.ids.has(id) ? ctx.kept.feedDir : ctx.feedDir;
  for (const f of files) {
    const dir = resolveInside(path.join(ctx.siteDir, 'skills', id, 'files'), f.file.path);
    await mkdir(dir, { recursive: true });
    const page = path.join(dir, 'index.html');
    const html = fillTemplate(template, ctx.marker, f.file.path, filePanel(feedDir, skill, f.file, ctx.urls), f.index);
    await writeFile(page, html);
    ctx.cache.adopt(ctx.key(id, f.file.path), page, sha256Hex(html));
  }
  writeFolderRedirects(skill, path.join(ctx.siteDir, 'skills', id), ctx.urls);
  return files.length;
}

/** Writes the file pages of `skills` (their templates rendered) into `ctx.siteDir`, keeping each; returns how many. */
export async function writeFileViews(skills: readonly FeedSkill[], ctx: FileViewContext): Promise<number> {
  const counts = await pMap(skills, (skill) => writeSkillFileViews(skill, ctx), 8);
  return counts.reduce((a, b) => a + b, 0);
}
