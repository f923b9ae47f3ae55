/**
 * SKILL.md of every skill rendered to HTML before the pages are built, through the render cache
 * (src/site/render-cache.ts): a build renders only the skills whose SKILL.md, file list or URLs
 * changed since an earlier build, and says how many.
 */
import { readFileSync } from 'node:fs';
import { findPackageJSON } from 'node:module';
import type { Card } from '../model/feed.ts';
import { pMap } from '../lib/p-map.ts';
import { readSkill } from './feed-data.ts';
import { RenderCache } from './render-cache.ts';
import { renderSkillBody } from './skill-view.ts';
import type { SiteUrls } from './urls.ts';

export interface RenderedBodies {
  /** Skill id → file holding its rendered SKILL.md. */
  bodies: Record<string, string>;
  rendered: number;
  reused: number;
}

/** The renderer's own code and markdown-it's version: a change to either is a new cache key. */
function rendererFingerprint(): string {
  const source = (name: string): string => {
    for (const ext of ['.ts', '.js']) {
      try {
        return readFileSync(new URL(`./${name}${ext}`, import.meta.url), 'utf8');
      } catch {
        // compiled to .js, or the other way round
      }
    }
    throw new Error(`site: cannot read the renderer's source ${name}`);
  };
  const markdownIt = JSON.parse(readFileSync(findPackageJSON('markdown-it', import.meta.url)!, 'utf8')) as { version: string };
  return RenderCache.key(source('markdown'), source('skill-view'), markdownIt.version);
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
