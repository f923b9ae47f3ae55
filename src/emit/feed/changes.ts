/**
 * changes.json: what changed since the previous build. The previous build is a feed folder or
 * URL (`--previous`), or the feed already in the output folder. Removed skills stay listed as
 * tombstones in every later build until they come back.
 */
import { type Card, type Change } from '../../model/feed.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { openFeed } from '../../feed-reader/index.ts';

export interface PreviousFeed {
  /** Where it was read from, for messages. */
  location: string;
  generated_at: string;
  cards: Card[];
  /** Tombstones (`removed`) carried over from the previous changes.json. */
  tombstones: Change[];
}

/** A previous build is read whole (cards.json grows ~1 KB a skill): its parts are capped here. */
const MAX_PREVIOUS_BYTES = 64 * 1024 * 1024;

/**
 * Read a previous build's cards and tombstones with the feed reader (each part checked against
 * index.json's digests; URLs through the guarded HTTP client, uncached). `location` is a build
 * output folder or site URL (holding `feed/v1/`), a feed folder or URL, or the URL of its
 * `index.json`. Returns undefined when no feed is there; throws when one is there but broken.
 *
 * @example
 * ```ts
 * import { loadPreviousFeed } from 'skillpress';
 * const previous = await loadPreviousFeed('https://skills.example/');
 * console.log(previous ? `${previous.cards.length} skills at ${previous.generated_at}` : 'no feed there');
 * ```
 */
export async function loadPreviousFeed(
  location: string,
  opts: { feedPath?: string; timeoutMs?: number } = {},
): Promise<PreviousFeed | undefined> {
  let reader;
  try {
    reader = await openFeed(location, {
      feedPath: opts.feedPath,
      timeoutMs: opts.timeoutMs ?? 10_000,
      maxBytes: MAX_PREVIOUS_BYTES,
      cache: null,
    });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
  const cards = await reader.cards();
  // A previous changes.json that cannot be read only loses old tombstones, not the build.
  const changes = await reader.changes().catch(() => undefined);
  return {
    location: reader.location,
    generated_at: cards.generated_at,
    cards: cards.skills,
    tombstones: changes ? changes.changes.filter((c) => c.change === 'removed') : [],
  };
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
