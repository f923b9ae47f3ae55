/**
 * Skill pages and file pages kept between builds (src/lib/file-cache.ts), so that a rebuild has
 * Astro render the pages of changed skills only. A page's key is everything it is made of:
 *
 * - the site's code: every source file of this package, astro.config.mjs, the lockfile when
 *   there is one, the versions of Astro and of what it compiles with, and the names of the
 *   scripts and styles Astro just bundled (named by content hash, so any change to code that
 *   reaches the browser changes them);
 * - the URLs of this build, the registry every page shows and the bundles skill pages show;
 * - the skill's JSON (by sha256: card, summary, every file's metadata and digest) and, for the
 *   skill's page, its rendered SKILL.md (by sha256).
 *
 * Kept pages are put in place before Astro renders (a hard link each, checked against its
 * sha256); a skill any of whose pages is missing or damaged is rendered again. Making the
 * folders of thousands of file pages costs more than the links; so when the site being replaced
 * holds a skill's folder with exactly the pages this build would place (no other file, each
 * checked against its sha256), that folder is moved into the new site instead, once the new site
 * is complete (`takeFolders`).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FileCache } from '../lib/file-cache.ts';
import { folderMatches, realFolder } from '../lib/folder-match.ts';
import { resolveInside } from '../lib/fs.ts';
import { sha256Hex } from '../lib/hash.ts';
import type { FeedSkill } from '../model/feed.ts';
import type { SkillJson } from './feed-data.ts';
import type { RenderedBody } from './render-bodies.ts';
import { fileFolderRedirects, folderRedirectFile, writeFolderRedirects } from './redirects.ts';
import { listFiles } from './skill-view.ts';
import type { RenderPlan } from './site-data.ts';
import type { SiteUrls } from './urls.ts';

/** Every file below `dir`, relative, sorted. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/**
 * The site's code as it shapes the pages, before bundling: the sources, the Astro config, the
 * lockfile, and the versions of Astro, Vite and Astro's compiler.
 */
export function siteSources(projectRoot: string): string {
  const hash = createHash('sha256');
  const read = (file: string): void => {
    hash.update(`${path.relative(projectRoot, file)}\0`);
    try {
      hash.update(readFileSync(file));
    } catch {
      hash.update('(none)');
    }
  };
  for (const file of filesBelow(path.join(projectRoot, 'src'))) read(path.join(projectRoot, 'src', file));
  for (const file of ['astro.config.mjs', 'package.json', 'package-lock.json']) read(path.join(projectRoot, file));
  const astro = module.findPackageJSON('astro', pathToFileURL(path.join(projectRoot, 'package.json')));
  for (const pkg of [
    astro,
    ...['vite', '@astrojs/compiler-rs'].map((name) =>
      astro ? module.findPackageJSON(name, pathToFileURL(astro)) : undefined,
    ),
  ]) {
    if (pkg) read(pkg);
  }
  return hash.digest('hex');
}

/**
 * What every key of one build shares: the site's sources, the names of the assets Astro bundled
 * into `distDir`, where the site and its feed and files are served, and the registry.
 */
export function pageKeyBase(
  sources: string,
  distDir: string,
  served: { base: string; feedPath: string; filesBaseUrl?: string; command?: string },
  registry: unknown,
): string {
  const assets = filesBelow(path.join(distDir, '_astro'));
  return FileCache.key(
    sources,
    assets,
    served.base,
    served.feedPath,
    served.filesBaseUrl ?? null,
    served.command ?? null,
    registry,
  );
}

export const skillPageKey = (base: string, skillJson: string, body: string): string =>
  FileCache.key(base, 'skill-page', skillJson, body);
export const filePageKey = (base: string, skillJson: string, filePath: string): string =>
  FileCache.key(base, 'file-page', skillJson, filePath);

export interface PagePlan extends RenderPlan {
  /** Skills whose folder is taken from the site being replaced (`takeFolders`). */
  folders: Set<string>;
  reusedPages: number;
  reusedFiles: number;
}

export interface PlanContext {
  /** Every skill of the build (src/site/feed-data.ts), in the cards' order. */
  skills: ReadonlyMap<string, SkillJson>;
  /** The site being assembled: kept pages are put here. */
  siteDir: string;
  /** The site this one replaces (a real folder, not a link), whose skill folders may be taken. */
  previousDir?: string;
  urls: SiteUrls;
  cache: FileCache;
  keyBase: string;
  /** Skill id → its rendered SKILL.md. */
  bodies: Record<string, RenderedBody>;
}

/** Put every kept page of an unchanged skill in place; say which skills' pages and file pages are to be rendered. */
export function placeKeptPages(ctx: PlanContext): PagePlan {
  const plan = {
    skills: new Set<string>(),
    templates: new Set<string>(),
    folders: new Set<string>(),
    reusedPages: 0,
    reusedFiles: 0,
  };
  // Never through a link: what is moved must be inside the folder being replaced.
  const previousSkills =
    ctx.previousDir && realFolder(ctx.previousDir) && realFolder(path.join(ctx.previousDir, 'skills'));
  for (const [id, { skill, sha256: sha }] of ctx.skills) {
    const matched = previousSkills
      ? folderMatches(path.join(previousSkills, id), expectedPages(skill, sha, ctx))
      : undefined;
    if (matched !== undefined) {
      plan.folders.add(id);
      plan.reusedPages++;
      // A page per file (the folder also holds the skill's page and its folders' redirects).
      plan.reusedFiles += skill.files.length;
      continue;
    }
    const skillDir = path.join(ctx.siteDir, 'skills', id);
    if (placeKept(ctx.cache, skillPageKey(ctx.keyBase, sha, ctx.bodies[id]!.sha256), path.join(skillDir, 'index.html')))
      plan.reusedPages++;
    else plan.skills.add(id);
    const placed = placeFilePages(skill, sha, skillDir, ctx);
    if (placed === undefined) plan.templates.add(id);
    else plan.reusedFiles += placed;
  }
  return plan;
}

/** A skill's kept file pages, all in place (how many), or none (undefined: they are to be made). */
function placeFilePages(skill: FeedSkill, sha: string, skillDir: string, ctx: PlanContext): number | undefined {
  const pages = listFiles(skill, ctx.urls).map((f) => ({
    key: filePageKey(ctx.keyBase, sha, f.file.path),
    file: path.join(resolveInside(path.join(skillDir, 'files'), f.file.path), 'index.html'),
  }));
  // Folders are made only for pages the cache holds: on a first build, none.
  if (!pages.every((p) => ctx.cache.has(p.key))) return undefined;
  for (const p of pages) {
    if (!placeKept(ctx.cache, p.key, p.file)) {
      rmSync(path.join(skillDir, 'files'), { recursive: true, force: true });
      return undefined;
    }
  }
  writeFolderRedirects(skill, skillDir, ctx.urls);
  return pages.length;
}

/** Put the entry for `key` at `file` (its folder made) when the cache holds one; whether it was placed (and checked there). */
function placeKept(cache: FileCache, key: string, file: string): boolean {
  if (!cache.has(key)) return false;
  mkdirSync(path.dirname(file), { recursive: true });
  return cache.place(key, file) !== undefined;
}

/** A skill's pages as this build would place them: path in its folder → the sha256 kept for it (undefined when one is not kept). */
function expectedPages(skill: FeedSkill, sha: string, ctx: PlanContext): Map<string, string> | undefined {
  const pages = new Map<string, string>();
  const keys: Array<[string, string]> = [
    ['index.html', skillPageKey(ctx.keyBase, sha, ctx.bodies[skill.card.id]!.sha256)],
  ];
  const skillDir = path.join(ctx.siteDir, 'skills', skill.card.id);
  for (const f of listFiles(skill, ctx.urls)) {
    keys.push([
      path.relative(skillDir, path.join(resolveInside(path.join(skillDir, 'files'), f.file.path), 'index.html')),
      filePageKey(ctx.keyBase, sha, f.file.path),
    ]);
  }
  for (const [rel, key] of keys) {
    const digest = ctx.cache.use(key);
    if (digest === undefined) return undefined;
    pages.set(rel, digest);
  }
  // Made, not kept: a few hundred bytes each, the same for the same skill and URLs.
  for (const r of fileFolderRedirects(skill, ctx.urls))
    pages.set(path.relative(skillDir, folderRedirectFile(skillDir, r.folder)), sha256Hex(r.html));
  return pages;
}

/**
 * Move the folders of `plan.folders` from the site being replaced into the new one. Run last,
 * when nothing but the swap of the two sites is left to do: until then the site being replaced
 * stays whole.
 */
export function takeFolders(plan: PagePlan, previousDir: string, siteDir: string): void {
  mkdirSync(path.join(siteDir, 'skills'), { recursive: true });
  for (const id of plan.folders) renameSync(path.join(previousDir, 'skills', id), path.join(siteDir, 'skills', id));
}
