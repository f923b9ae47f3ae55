/**
 * What the page about the feed (`/feed/`) lists: each file the feed publishes, linked, with what it
 * holds, and its size and sha256 where the manifest records them (src/emit/feed/write-feed.ts
 * writes them; index.json lists every part with its digest).
 */
import type { FeedIndex } from '../model/feed.ts';
import { FEED_PATH } from '../lib/layout.ts';
import type { SiteUrls } from './urls.ts';

export interface FeedPartRow {
  /** The file's path below the site, as a reader would write it: `feed/v1/cards.json`. */
  name: string;
  /** Its URL; none for a pattern (`feed/v1/skills/<id>.json`). */
  href?: string;
  what: string;
  bytes?: number;
  sha256?: string;
}

/** What each part of the manifest holds, by its key in `index.json`'s `parts`. */
const PART_TEXT: Record<string, string> = {
  cards: 'Every skill’s card: name, description, tags, domain, version, digest, token estimate.',
  search:
    'The search index (names, descriptions, tags) that this site loads on the first search and the MCP server reads.',
  search_body: 'The search index of the skills’ instructions, loaded when a search reaches into them.',
  skill_vectors: 'Each skill’s purpose as a vector, for ranking by meaning.',
  changes: 'What changed since the previous build, with tombstones for removed skills.',
};

/**
 * The rows of the page, the manifest first. With `index` (the published feed's manifest) every
 * part it lists, with size and sha256; without it (the site shows a catalog beside the feed)
 * the parts every feed has.
 */
export function feedPartRows(urls: SiteUrls, index?: FeedIndex): FeedPartRow[] {
  const row = (rel: string, what: string, part?: { bytes: number; sha256: string }): FeedPartRow => ({
    name: `feed/v1/${decodeURI(rel)}`,
    href: urls.publicFeed(rel),
    what,
    ...(part ? { bytes: part.bytes, sha256: part.sha256 } : {}),
  });
  const parts = index
    ? Object.entries(index.parts).map(([key, part]) => row(part.url, partText(key), part))
    : [
        row('cards.json', PART_TEXT.cards!),
        row('search.json', PART_TEXT.search!),
        row('changes.json', PART_TEXT.changes!),
      ];
  return [
    row('index.json', 'The manifest: registry, counts, and every other part and skill with its sha256. Start here.'),
    ...parts,
    {
      name: 'feed/v1/skills/<id>.json',
      what: 'One skill: its card, SKILL.md, and its files with sizes and sha256 (index.json lists each with its sha256).',
    },
    { name: 'feed/v1/files/<id>/<path>', what: 'Each file of a skill, its bytes unchanged.' },
  ];
}

function partText(key: string): string {
  const schema = /^schema:(.+)$/.exec(key)?.[1];
  return schema ? `The JSON Schema of ${schema}.` : (PART_TEXT[key] ?? `The feed's ${key}.`);
}

/**
 * The `federation.peers` entry another registry copies to import this feed: its name, the URL of
 * its manifest and, when it signs its skills, its public key, pinned (docs/federation-and-install.md
 * advises it: a key read from the feed itself is only trusted on first use).
 */
export function peerEntry(index: FeedIndex, site: string): string {
  const { name, public_key } = index.registry;
  const peer = {
    name: name || 'peer',
    url: `${site}${FEED_PATH}/index.json`,
    ...(public_key !== undefined ? { public_key } : {}),
  };
  return JSON.stringify({ federation: { peers: [peer] } }, null, 2);
}
