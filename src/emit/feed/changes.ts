/**
 * changes.json: what changed since the previous build. The previous build is a feed folder or
 * URL (`--previous`), or the feed already in the output folder. Removed skills stay listed as
 * tombstones in every later build until they come back. Added and updated entries are the news
 * of the last build that changed a skill: a build that changes nothing publishes the previous
 * feed again, news and time included (write-feed.ts).
 *
 * The previous feed is read like any peer's (it may be a URL anyone serves): every id must be a
 * valid skill id, every date ISO 8601 and no later than the feed's own `generated_at`, tombstones
 * must be `removed` entries for skills the previous feed does not list, news entries must match
 * the card of a skill it lists, strings are bounded, and so are the counts (over the bound is an
 * error). What is refused is named in `refused`, never carried into this build's changes.json.
 */
import { type Card, type Change } from '../../model/feed.ts';
import { InvalidInputError, NotFoundError } from '../../lib/errors.ts';
import { SKILL_NAME_PATTERN } from '../../model/skill.ts';
import { openFeed } from '../../feed-reader/index.ts';

export interface PreviousFeed {
  /** Where it was read from, for messages. */
  location: string;
  generated_at: string;
  cards: Card[];
  /** Tombstones (`removed`) carried over from the previous changes.json. */
  tombstones: Change[];
  /** Its own news (`added` and `updated` entries), carried when this build changes no skill. */
  news?: Change[];
  /** Its changes.json's `previous_generated_at`, carried with the news. */
  previous_generated_at?: string;
  /** sha256 of its index.json's bytes: a build that would write the same bytes keeps the previous time. */
  index_sha256?: string;
  /** Cards and changes of the previous feed that were not taken, each with why. */
  refused: string[];
}

/** At most this many skills and tombstones in a previous feed (more is an error, not a truncation). */
export const MAX_PREVIOUS_SKILLS = 50_000;
export const MAX_PREVIOUS_TOMBSTONES = 10_000;
/** Longest id the loader ever gives a skill (a lenient name; it becomes a folder name). */
const MAX_ID = 200;
/** Longest version string carried over. */
const MAX_VERSION = 256;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
/** Refusals named one by one; the rest are counted. */
const NAMED = 20;

const isSkillId = (id: string): boolean => id.length <= MAX_ID && SKILL_NAME_PATTERN.test(id);
const isIsoDate = (at: string): boolean => ISO_DATE.test(at) && !Number.isNaN(Date.parse(at));
/** An id for a message: quoted, cut to 80 characters. */
const shown = (id: string): string => JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id);

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
  const checked = checkPrevious(reader.location, cards.generated_at, cards.skills, changes?.changes ?? []);
  const before = changes?.previous_generated_at;
  return {
    ...checked,
    ...(before !== undefined && isIsoDate(before) ? { previous_generated_at: before } : {}),
    index_sha256: reader.version,
  };
}

/** The previous feed's cards and tombstones that hold up, and what did not (see the module's comment). */
export function checkPrevious(location: string, generatedAt: string, cards: Card[], changes: Change[]): PreviousFeed {
  if (!isIsoDate(generatedAt))
    throw new InvalidInputError(
      `previous feed ${location}: generated_at ${shown(generatedAt)} is not an ISO 8601 date`,
    );
  const tombstones = changes.filter((c) => c.change === 'removed');
  if (cards.length > MAX_PREVIOUS_SKILLS || tombstones.length > MAX_PREVIOUS_TOMBSTONES) {
    throw new InvalidInputError(
      `previous feed ${location} lists ${cards.length} skills and ${tombstones.length} tombstones; at most ${MAX_PREVIOUS_SKILLS} and ${MAX_PREVIOUS_TOMBSTONES} are read`,
    );
  }
  const refused: string[] = [];
  const refuse = (what: string): false => (refused.push(what), false);
  const keptCards = cards.filter(
    (c) =>
      (isSkillId(c.id) || refuse(`card ${shown(c.id)}: not a valid skill id`)) &&
      ((c.version ?? '').length <= MAX_VERSION || refuse(`card ${shown(c.id)}: version longer than ${MAX_VERSION}`)),
  );
  const listed = new Map(keptCards.map((c) => [c.id, c]));
  const seen = new Set<string>();
  const kept = changes.filter((c) => {
    const what = `change ${shown(c.id)}`;
    if (!isSkillId(c.id)) return refuse(`${what}: not a valid skill id`);
    if (!isIsoDate(c.at) || Date.parse(c.at) > Date.parse(generatedAt))
      return refuse(`${what}: at ${shown(c.at)} is not an ISO 8601 date no later than the feed's generated_at`);
    const card = listed.get(c.id);
    if (c.change === 'removed' && card) return refuse(`${what}: a tombstone for a skill the feed still lists`);
    if (c.change !== 'removed' && (card?.digest !== c.digest || card?.version !== c.version))
      return refuse(`${what}: ${c.change} with a digest or version that is not the card's`);
    if ((c.previous_version ?? '').length > MAX_VERSION) return refuse(`${what}: version longer than ${MAX_VERSION}`);
    if (seen.has(c.id)) return refuse(`${what}: listed twice`);
    seen.add(c.id);
    return true;
  });
  const named = refused.slice(0, NAMED);
  if (refused.length > NAMED) named.push(`and ${refused.length - NAMED} more`);
  return {
    location,
    generated_at: generatedAt,
    cards: keptCards,
    tombstones: kept.filter((c) => c.change === 'removed'),
    news: kept.filter((c) => c.change !== 'removed'),
    refused: named,
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
  return changes.sort(idOrder);
}

const idOrder = (a: Change, b: Change): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** This build's own entries of a change list: those that are not tombstones carried over from `previous`. */
export function newsOf(changes: readonly Change[], previous: PreviousFeed | undefined): Change[] {
  const carried = new Set(previous?.tombstones ?? []);
  return changes.filter((c) => !carried.has(c));
}

/** A change list with the previous build's news put back: what a build that changes no skill publishes. */
export function withNews(changes: readonly Change[], previous: PreviousFeed): Change[] {
  return [...(previous.news ?? []), ...changes].sort(idOrder);
}
