/**
 * SKILL.md of every skill rendered to HTML before the pages are built, through the render cache
 * (src/site/render-cache.ts): a build renders only the skills whose SKILL.md, file list or URLs
 * changed since an earlier build, and says how many.
 */
import { readFileSync } from 'node:fs';
import { findPackageJSON } from 'node:module';
import type { Card, FeedSkill } from '../model/feed.ts';
import { pMap } from '../lib/p-map.ts';
import { readSkill } from './feed-data.ts';
import { RenderCache } from './render-cache.ts';
import { renderMarkdown, skillFileLinkResolver } from './markdown.ts';
import type { SiteUrls } from './urls.ts';

export interface RenderedBodies {
  /** Skill id → file holding its rendered SKILL.md. */
  bodies: Record<string, string>;
  rendered: number;
  reused: number;
}

/**
 * SKILL.md's body as sanitized HTML. Relative links to the skill's own files point at their
 * views (opened in place on the skill page), relative images at the files' bytes.
 */
export function renderSkillBody(skill: FeedSkill, urls: SiteUrls): string {
  const id = skill.card.id;
  const paths = new Set(skill.files.map((f) => f.path));
  return renderMarkdown(skill.body, {
    resolveLink: skillFileLinkResolver(paths, (p, kind) =>
      kind === 'image' ? { href: urls.file(id, p) } : { href: urls.fileView(id, p), attrs: { 'data-file-link': '' } },
    ),
  });
}

/**
 * What the rendering depends on besides its input: the renderer's own code (its source, when it
 * runs from source; skillpress's version when it runs from a bundle) and markdown-it's version.
 * A change to any is a new cache key.
 */
function rendererFingerprint(): string {
  const read = (file: string | URL | undefined): string => {
    try {
      return file ? readFileSync(file, 'utf8') : '';
    } catch {
      return '';
    }
  };
  const sources = ['markdown.ts', 'render-bodies.ts'].map((name) => read(new URL(`./${name}`, import.meta.url)));
  const version = (file: string | undefined): unknown => (JSON.parse(read(file) || '{}') as { version?: string }).version;
  return RenderCache.key(sources, version(findPackageJSON(import.meta.url)), version(findPackageJSON('markdown-it', import.meta.url)));
}

export async function renderBodies(feedDir: string, cards: readonly Card[], urls: SiteUrls, cacheDir: string): Promise<RenderedBodies> {
  const cache = new RenderCache(cacheDir);
  const renderer = rendererFingerprint();
  const bodies: Record<string, string> = {};
  await pMap(
    cards,
    async (card) => {
      const skill = readSkill(feedDir, card.id);
      const key = RenderCache.key(renderer, skill.body, skill.files.map((f) => f.path), urls.fileView(card.id, ''), urls.file(card.id, ''));
      bodies[card.id] = await cache.file(key, () => renderSkillBody(skill, urls));
    },
    8,
  );
  await cache.prune();
  return { bodies, rendered: cache.rendered, reused: cache.reused };
}
