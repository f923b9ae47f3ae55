/**
 * The pages' view of this build (src/site/site-data.ts): the feed, the URLs, each skill's
 * rendered SKILL.md, and the keys of Astro's incremental build. Imported by .astro files only;
 * what is read is read once per build.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import site from 'virtual:skillpress/site';
import type { Card, FeedIndex, FeedSkill } from '../model/feed.ts';
import { readCards, readIndex, readSkill } from './feed-data.ts';
import { currentBuild, type SiteBuild } from './site-data.ts';
import { siteUrls } from './urls.ts';

export const urls = siteUrls(site.base, { feedPath: site.feedPath, filesBaseUrl: site.filesBaseUrl });
export const marker = site.marker;

/** Every card, sorted by name. */
export const loadCards = (): Card[] => {
  const build = currentBuild();
  return (build.memo.cards ??= readCards(build.feedDir));
};
/** The feed's manifest (every page's layout needs the registry's name). */
export const loadIndex = (): FeedIndex => {
  const build = currentBuild();
  return (build.memo.index ??= readIndex(build.feedDir));
};
export const loadSkill = (id: string): FeedSkill => readSkill(currentBuild().feedDir, id);
/** SKILL.md of a skill as sanitized HTML, rendered before the pages (src/site/render-bodies.ts). */
export const bodyHtml = (id: string): string => readFileSync(currentBuild().bodies[id]!.file, 'utf8');

const sha256 = (...parts: unknown[]): string => createHash('sha256').update(JSON.stringify(parts)).digest('hex');

/** What the page keys are made of, once per build: the registry, each skill JSON's sha256, the cards. */
function keyInputs(): NonNullable<SiteBuild['memo']['keys']> {
  const build = currentBuild();
  const index = loadIndex();
  return (build.memo.keys ??= { registry: sha256(index.registry), skills: new Map(index.skills.map((s) => [s.id, s.sha256])), cards: sha256(loadCards()) });
}

/**
 * `cacheKey`s for Astro's incremental build (`experimental.incrementalBuild`): Astro reuses a
 * page from an earlier build when its key and the hash of its code both match, so a key covers
 * everything the page shows that is not code: the registry, and the skill's JSON (by its sha256)
 * and rendered SKILL.md, or the list of cards.
 */
export const pageKeys = {
  skill: (id: string): string => sha256('skill', keyInputs().registry, keyInputs().skills.get(id), currentBuild().bodies[id]?.sha256),
  fileTemplate: (id: string): string => sha256('file-template', keyInputs().registry, keyInputs().skills.get(id)),
  list: (): string => sha256('list', keyInputs().registry, keyInputs().cards),
};
