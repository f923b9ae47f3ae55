/**
 * The pages' view of this build (src/site/site-data.ts): the feed, the URLs and each skill's
 * rendered SKILL.md. Imported by .astro files only; read once per build and kept (on a live site,
 * once per build served).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import site from 'virtual:skillpress/site';
import type { Card, FeedIndex, FeedSkill } from '../model/feed.ts';
import { readCards, readIndex, readSkill } from './feed-data.ts';
import { liveSites, renderPlans, type LiveState, type RenderPlan } from './site-data.ts';
import { PUBLIC_FEED_PATH, siteUrls } from './urls.ts';
import { sha256Hex } from '../lib/hash.ts';
import { DEFAULT_COMMAND } from './install.ts';

export const urls = siteUrls(site.base, { feedPath: site.feedPath, filesBaseUrl: site.filesBaseUrl });
export const marker = site.marker;
/** `site.command`: how the snippets run skillpress. */
export const command = site.command ?? DEFAULT_COMMAND;

const built: LiveState = { feedDir: site.feedDir, bodies: site.bodies, generation: 0 };
let read: { generation: number; cards?: Card[]; index?: FeedIndex } = { generation: 0 };

/** The feed the pages read: this build's, or on a live site the one being served. */
function current(): LiveState {
  const state = site.live ? (liveSites().get(site.marker) ?? built) : built;
  if (read.generation !== state.generation) read = { generation: state.generation };
  return state;
}

/** Every card, sorted by name. */
export function loadCards(): Card[] {
  const { feedDir } = current();
  return (read.cards ??= readCards(feedDir));
}
/** The feed's manifest (every page's layout needs the registry's name). */
export function loadIndex(): FeedIndex {
  const { feedDir } = current();
  return (read.index ??= readIndex(feedDir));
}
/**
 * The published feed's manifest and the sha256 of its bytes (the page about the feed shows them);
 * undefined when the site shows a catalog of its own beside the feed (`catalog/v1`).
 */
export function publishedIndex(): { index: FeedIndex; sha256: string } | undefined {
  if (site.feedPath !== PUBLIC_FEED_PATH) return undefined;
  return { index: loadIndex(), sha256: sha256Hex(readFileSync(path.join(current().feedDir, 'index.json'))) };
}
export const loadSkill = (id: string): FeedSkill => readSkill(current().feedDir, id);
/** SKILL.md of a skill as sanitized HTML, rendered before the pages (src/site/render-bodies.ts). */
export const bodyHtml = (id: string): string => readFileSync(current().bodies[id]!, 'utf8');

/**
 * The cards of the skills whose page (`skills`) or file pages' template (`templates`) this
 * build renders: the pages of the others were reused from an earlier build.
 */
export function toRender(kind: keyof RenderPlan): Card[] {
  const plan = renderPlans().get(site.marker);
  return loadCards().filter((c) => plan?.[kind].has(c.id) ?? true);
}
