/**
 * Build-time access to the written feed (`feed/v1`) for the site's pages. `buildSite` passes
 * the feed folder in `SKILLPRESS_FEED_DIR`: Astro renders pages in a bundle of its own, and
 * the environment is the one channel both sides share.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Card, Cards, FeedFile, FeedIndex, FeedSkill } from '../model/feed.ts';
import { PUBLIC_FEED_PATH, siteUrls, type SiteUrls } from './urls.ts';

export const FEED_DIR_ENV = 'SKILLPRESS_FEED_DIR';
/** Where the feed is below the published site (`feed/v1` or `catalog/v1`). */
export const FEED_PATH_ENV = 'SKILLPRESS_FEED_PATH';

/** The site's URLs for the base Astro builds with and the feed this build reads. */
export function pageUrls(base: string): SiteUrls {
  return siteUrls(base, process.env[FEED_PATH_ENV] || PUBLIC_FEED_PATH);
}

export function feedDir(): string {
  const dir = process.env[FEED_DIR_ENV];
  if (!dir) throw new Error(`${FEED_DIR_ENV} is not set: build the site with buildSite() or \`skillpress build\``);
  return dir;
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

let cardsCache: { dir: string; cards: Card[] } | undefined;

/** Every card, sorted by name (the order of the browsable list). */
export function loadCards(): Card[] {
  const dir = feedDir();
  if (cardsCache?.dir !== dir) {
    const cards = readJson<Cards>(path.join(dir, 'cards.json')).skills.slice();
    cards.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    cardsCache = { dir, cards };
  }
  return cardsCache.cards;
}

let indexCache: { dir: string; index: FeedIndex } | undefined;

/** The feed's manifest (read once per build: every page's layout needs the registry's name). */
export function loadIndex(): FeedIndex {
  const dir = feedDir();
  if (indexCache?.dir !== dir) indexCache = { dir, index: readJson<FeedIndex>(path.join(dir, 'index.json')) };
  return indexCache.index;
}

export function loadSkill(id: string): FeedSkill {
  return readJson<FeedSkill>(path.join(feedDir(), 'skills', `${id}.json`));
}

/** The stored bytes of one file of a skill. */
export function readFeedFile(id: string, file: FeedFile): Buffer {
  return readFileSync(path.join(feedDir(), 'files', id, ...file.path.split('/')));
}
