/**
 * changes.json: what changed since the previous build. The previous build is a feed folder or
 * URL (`--previous`), or the feed already in the output folder. Removed skills stay listed as
 * tombstones in every later build until they come back.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Cards, Changes, FEED_VERSION, type Card, type Change } from '../../model/feed.ts';

export interface PreviousFeed {
  /** Where it was read from, for messages. */
  location: string;
  generated_at: string;
  cards: Card[];
  /** Tombstones (`removed`) carried over from the previous changes.json. */
  tombstones: Change[];
}

const MAX_PREVIOUS_BYTES = 64 * 1024 * 1024;

async function readPart(base: string, name: string, timeoutMs: number): Promise<string | undefined> {
  if (/^https?:\/\//i.test(base)) {
    const url = new URL(name, base.endsWith('/') ? base : `${base}/`);
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
    if (res.status === 404) return undefined;
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    const text = await res.text();
    if (text.length > MAX_PREVIOUS_BYTES) throw new Error(`${url}: larger than ${MAX_PREVIOUS_BYTES} bytes`);
    return text;
  }
  return readFile(path.join(base, name), 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return undefined;
    throw err;
  });
}

/**
 * Read a previous build's cards and tombstones. `location` is a build output folder or site URL
 * (holding `feed/v1/`), a feed folder or URL (holding `cards.json`), or the URL of its
 * `index.json`. Returns undefined when no feed is there; throws when one is there but broken.
 */
export async function loadPreviousFeed(location: string, opts: { feedPath?: string; timeoutMs?: number } = {}): Promise<PreviousFeed | undefined> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const feedPath = opts.feedPath ?? 'feed/v1';
  const root = location.replace(/\/index\.json$/, '');
  const candidates = [`${root.replace(/\/$/, '')}/${feedPath}`, root];
  for (const base of candidates) {
    const cardsText = await readPart(base, 'cards.json', timeoutMs);
    if (cardsText === undefined) continue;
    const cards = Cards.safeParse(JSON.parse(cardsText));
    if (!cards.success) throw new Error(`${base}/cards.json is not a feed v${FEED_VERSION} cards file: ${cards.error.issues[0]?.message}`);
    const changesText = await readPart(base, 'changes.json', timeoutMs);
    const changes = changesText === undefined ? undefined : Changes.safeParse(JSON.parse(changesText));
    return {
      location: base,
      generated_at: cards.data.generated_at,
      cards: cards.data.skills,
      tombstones: changes?.success ? changes.data.changes.filter((c) => c.change === 'removed') : [],
    };
  }
  return undefined;
}

/** Compare this build's cards with the previous ones. Without a previous build every skill is `added`. */
export function computeChanges(cards: readonly Card[], previous: PreviousFeed | undefined, at: string): Change[] {
  const before = new Map((previous?.cards ?? []).map((c) => [c.id, c]));
  const now = new Set(cards.map((c) => c.id));
  const changes: Change[] = [];
  for (const card of cards) {
    const old = before.get(card.id);
    const version = card.version !== undefined ? { version: card.version } : {};
    if (!old) changes.push({ id: card.id, change: 'added', ...version, digest: card.digest, at });
    else if (old.digest !== card.digest || old.version !== card.version || old.registry !== card.registry) {
      changes.push({
        id: card.id,
        change: 'updated',
        ...version,
        digest: card.digest,
        ...(old.version !== undefined ? { previous_version: old.version } : {}),
        previous_digest: old.digest,
        at,
      });
    }
  }
  for (const old of previous?.cards ?? []) {
    if (now.has(old.id)) continue;
    changes.push({
      id: old.id,
      change: 'removed',
      ...(old.version !== undefined ? { previous_version: old.version } : {}),
      previous_digest: old.digest,
      at,
    });
  }
  const fresh = new Set(changes.map((c) => c.id));
  for (const t of previous?.tombstones ?? []) if (!now.has(t.id) && !fresh.has(t.id)) changes.push(t);
  return changes.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
