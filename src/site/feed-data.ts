/**
 * Reading a written feed folder (`feed/v1` or `catalog/v1`) for the site: at build time only.
 * Plain functions of the folder, so the render step (src/site/build-site.ts) and the pages
 * (through src/site/page-data.ts) read it the same way.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { resolveInside } from '../lib/fs.ts';
import { sha256Hex } from '../lib/hash.ts';
import type { Card, Cards, FeedFile, FeedIndex, FeedSkill } from '../model/feed.ts';

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

/** Every card, sorted by name (the order of the browsable list). */
export function readCards(feedDir: string): Card[] {
  const cards = readJson<Cards>(path.join(feedDir, 'cards.json')).skills.slice();
  return cards.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function readIndex(feedDir: string): FeedIndex {
  return readJson<FeedIndex>(path.join(feedDir, 'index.json'));
}

const skillFile = (feedDir: string, id: string): string => path.join(feedDir, 'skills', `${id}.json`);

export function readSkill(feedDir: string, id: string): FeedSkill {
  return readJson<FeedSkill>(skillFile(feedDir, id));
}

/** A skill's JSON, parsed, and the sha256 of its bytes (the site's page keys are made with it). */
export interface SkillJson {
  skill: FeedSkill;
  sha256: string;
}

/** The skills of `cards`, each read once for the whole site build, in the cards' order: id → its JSON. */
export function readSkills(feedDir: string, cards: readonly Card[]): Map<string, SkillJson> {
  return new Map(
    cards.map((card) => {
      const bytes = readFileSync(skillFile(feedDir, card.id));
      return [card.id, { skill: JSON.parse(bytes.toString('utf8')) as FeedSkill, sha256: sha256Hex(bytes) }];
    }),
  );
}

/** The stored bytes of one file of a skill. */
export function readFeedFile(feedDir: string, id: string, file: FeedFile): Buffer {
  return readFileSync(resolveInside(path.join(feedDir, 'files', id), file.path));
}
