/**
 * Import one peer's feed (v1) into Skill objects — the same model local skills have.
 *
 * Trust nothing: the feed is read with the feed reader (src/feed-reader/), which checks
 * index.json against the schema, every skill JSON against the sha256 the index lists, every file
 * against the sha256 its skill JSON lists and the content digest against the card's; paths must
 * be publishable and form a tree, URLs must stay inside the peer's feed, redirects on its host.
 * Then SKILL.md is parsed from its verified bytes and validated like a local one. Every request
 * is bounded, and the peer as a whole by a deadline and a byte budget (reserved before each
 * download). Anything that fails is left out with a warning naming the peer, the item and a
 * rule; the rest of the peer still imports. A peer that cannot be reached is read from the copy
 * of its feed last verified in the cache, its skills marked unhealthy (openPeerFeed).
 *
 * Attribution (seed 001: federated skills keep their original registry): a skill the peer
 * publishes as its own is attributed to the peer; one it re-exports keeps its origin and gains
 * the route it came by (`via`). One that comes back to us (a cycle) is not imported.
 */
import { USAGE_VERSION } from '../model/usage.ts';
import { MAX_VIA, type FeedSkill } from '../model/feed.ts';
import type { PeerConfig } from '../model/config.ts';
import type { Problem, Skill, SkillFile } from '../model/skill.ts';
import { VERSIONS_SCHEMA } from '../model/feed.ts';
import { assembleSkill, readSkillMarkdown, skippedFile, storedFile } from '../load/index.ts';
import { InvalidInputError, SkillpressError, errorMessage } from '../lib/errors.ts';
import { ByteBudget, Deadline } from '../lib/http.ts';
import { pMap } from '../lib/p-map.ts';
import { didYouMean } from '../lib/near-names.ts';
import { FeedReader, type IndexEntry, type VerifiedFile } from '../feed-reader/reader.ts';
import { RemoteStore, type RemoteStoreOptions } from '../feed-reader/remote-store.ts';
import { feedIndexUrls, isUnreachable, openFirstFeedIndex } from '../feed-reader/open.ts';
import { CachedStore, lastCachedIndex } from '../feed-reader/cached-store.ts';
import type { Cache } from '../feed-reader/cache.ts';

export interface PeerContext {
  cache: Cache;
  timeoutMs: number;
  maxBytes: number;
  /** Most bytes downloaded from this peer in one build. */
  maxPeerBytes?: number;
  /** Deadline for everything fetched from this peer. */
  peerTimeoutMs?: number;
  /** This registry's name: a skill that comes from it, or passed through it, is a cycle. */
  registry?: string;
  now: Date;
}

export interface PeerImport {
  skills: Skill[];
  problems: Problem[];
  /** HTTP requests this import sent. */
  requests: number;
  /** The index answered 304 Not Modified. */
  notModified: boolean;
  /** The registry the peer's index names, with the key it signs its own skills with (when it read). */
  publisher?: { name: string; public_key?: string };
  /** The peer could not be reached: its skills come from the copy of its feed it last served or confirmed at this time (ISO 8601). */
  fromCache?: string;
}

/** Rule ids of the feed reader's and the HTTP client's errors, as federation names them. */
const RULES: Record<string, string> = {
  schema: 'invalid-feed',
  'too-deep': 'invalid-feed',
  'missing-part': 'invalid-feed',
  'leaves-feed': 'foreign-url',
};

/** The warning rule for an error: `peer-<rule>` (`peer-digest-mismatch`, `peer-timeout`…), or a `federation-…` rule as is. */
function ruleOf(err: unknown): string {
  const rule = err instanceof SkillpressError ? err.rule : undefined;
  if (rule?.startsWith('federation-')) return rule;
  return `peer-${rule ? (RULES[rule] ?? rule) : 'error'}`;
}

const reject = (rule: string, message: string): InvalidInputError => new InvalidInputError(message, { rule });

/** Reports an item that failed; `outcome` adds what was done instead. */
type Report = (item: string, err: unknown, outcome?: string) => void;

export async function importPeer(peer: PeerConfig, ctx: PeerContext): Promise<PeerImport> {
  const problems: Problem[] = [];
  const report: Report = (item, err, outcome = '') => {
    problems.push({
      severity: 'warning',
      skill: `peer:${peer.name}`,
      file: item,
      rule: ruleOf(err),
      message: `peer "${peer.name}", ${item}: ${errorMessage(err)}${outcome}`,
    });
  };
  // Every place tried for index.json (the peer's URL may be its site, its feed page or its feed).
  const tried: RemoteStore[] = [];
  const done = (skills: Skill[], publisher?: PeerImport['publisher'], fromCache?: string): PeerImport => ({
    skills,
    problems,
    requests: tried.reduce((sum, s) => sum + s.requests, 0),
    notModified: tried.at(-1)?.notModified ?? false,
    ...(publisher ? { publisher } : {}),
    ...(fromCache ? { fromCache } : {}),
  });

  let opened: OpenedFeed;
  try {
    opened = await openPeerFeed(peer, ctx, tried);
  } catch (err) {
    report('index.json', err);
    return done([]);
  }
  const { reader, unreachable } = opened;
  const { name, public_key } = reader.index.registry;
  const publisher = { name, ...(public_key !== undefined ? { public_key } : {}) };
  let entries: IndexEntry[] = [];
  try {
    entries = await chooseEntries(peer, reader, report);
  } catch (err) {
    report('cards.json', err); // choosing by tag reads cards.json
  }
  const skills = await importEntries(peer, reader, entries, ctx.registry, report);
  if (!unreachable) return done(skills, publisher);
  // Served, and said so: in the warnings, and on each skill as a SKILL.md URL's stale copy is.
  const { error, confirmedAt } = unreachable;
  report(
    'index.json',
    error,
    `; its ${skills.length} skill(s) are served from the copy of its feed verified on ${confirmedAt}, marked unhealthy`,
  );
  const health: Skill['health'] = {
    status: 'unhealthy',
    checked_at: ctx.now.toISOString(),
    detail: `${errorMessage(error)}; served from the copy of the peer's feed verified on ${confirmedAt}`,
  };
  return done(
    skills.map((skill) => ({ ...skill, health })),
    publisher,
    confirmedAt,
  );
}

interface OpenedFeed {
  reader: FeedReader;
  /** Set when the peer could not be reached and `reader` reads the copy in the cache. */
  unreachable?: { error: unknown; confirmedAt: string };
}

/**
 * The peer's feed, from the first place under its URL that answers (each store tried is pushed to
 * `tried`). When the peer cannot be reached (refused, a timeout, a 5xx or a 429), the copy of its feed last
 * verified in the cache, read without the network: a peer down for one build must not publish its
 * skills as removed, and so have every registry federating from us delete them. A peer that
 * answers something broken, or 404 everywhere, is not bridged: what it publishes is its to say.
 */
async function openPeerFeed(peer: PeerConfig, ctx: PeerContext, tried: RemoteStore[]): Promise<OpenedFeed> {
  const options = storeOptions(peer, ctx);
  try {
    const store = await openFirstFeedIndex(peer.url, async (indexUrl) => {
      const candidate = new RemoteStore(indexUrl, options);
      tried.push(candidate);
      await candidate.refresh();
      return candidate;
    });
    return { reader: await FeedReader.open(store) };
  } catch (error) {
    if (!isUnreachable(error)) throw error;
    const copy = await lastCachedIndex(ctx.cache, feedIndexUrls(peer.url));
    if (!copy) throw error; // never fetched: nothing to serve
    const store = new CachedStore(copy, ctx.cache);
    // A copy this version cannot read (cached by an older one) is as good as none.
    const reader = await FeedReader.open(store).catch(() => undefined);
    if (!reader) throw error;
    return { reader, unreachable: { error, confirmedAt: store.confirmedAt } };
  }
}

/** One peer's requests share its byte budget and deadline. */
function storeOptions(peer: PeerConfig, ctx: PeerContext): RemoteStoreOptions {
  return {
    cache: ctx.cache,
    timeoutMs: ctx.timeoutMs,
    maxBytes: ctx.maxBytes,
    limitName: 'federation.max_bytes',
    budget: ctx.maxPeerBytes === undefined ? undefined : new ByteBudget(ctx.maxPeerBytes, 'federation.max_peer_bytes'),
    deadline:
      ctx.peerTimeoutMs === undefined
        ? undefined
        : new Deadline(ctx.peerTimeoutMs, `peer "${peer.name}" (federation.peer_timeout_ms)`),
    now: ctx.now,
  };
}

/** The skills of `entries`, four at a time; each one that fails is reported and left out. */
async function importEntries(
  peer: PeerConfig,
  reader: FeedReader,
  entries: IndexEntry[],
  registry: string | undefined,
  report: Report,
): Promise<Skill[]> {
  const seen = new Set<string>();
  const imported = await pMap(
    entries,
    async (entry) => {
      try {
        if (seen.has(entry.id)) throw reject('inconsistent', `"${entry.id}" is listed twice in index.json`);
        seen.add(entry.id);
        const skill = await importSkill(peer, reader, entry, reader.location, registry);
        if (peer.mode === 'tags' && !hasTag(skill.registry_fields.tags, peer.tags)) return undefined;
        return skill;
      } catch (err) {
        report(`skills/${entry.id}`, err);
        return undefined;
      }
    },
    4,
  );
  return imported.filter((s): s is Skill => s !== undefined);
}

/** The index entries `peer.mode` asks for; allowlist names the peer lacks are reported. */
async function chooseEntries(peer: PeerConfig, reader: FeedReader, report: Report): Promise<IndexEntry[]> {
  const entries = reader.index.skills;
  if (peer.mode === 'allowlist') {
    const wanted = new Set(peer.skills);
    const ids = entries.map((e) => e.id);
    for (const name of wanted) {
      if (!ids.includes(name))
        report(
          `skills/${name}`,
          reject('skill-missing', `listed in the allowlist but not in the peer feed${didYouMean(name, ids)}`),
        );
    }
    return entries.filter((e) => wanted.has(e.id));
  }
  if (peer.mode === 'tags') {
    // cards.json holds every skill's tags: one (verified, cached) download instead of every skill JSON.
    const cards = await reader.cards();
    const tagged = new Set(cards.skills.filter((c) => hasTag(c.tags, peer.tags)).map((c) => c.id));
    if (tagged.size === 0 && cards.skills.length > 0) report('cards.json', noTaggedSkill(peer.tags, cards.skills));
    return entries.filter((e) => tagged.has(e.id));
  }
  return entries;
}

/** Nothing to import by these tags: the tags the peer does use, so a spelling is easy to fix. */
function noTaggedSkill(
  wanted: readonly string[],
  cards: ReadonlyArray<{ tags: readonly string[] }>,
): InvalidInputError {
  const uses = new Map<string, number>();
  for (const tag of cards.flatMap((c) => c.tags)) uses.set(tag, (uses.get(tag) ?? 0) + 1);
  const most = [...uses].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10);
  const offered =
    most.length > 0
      ? `its most used tags: ${most.map(([t, n]) => `${t} (${n})`).join(', ')}`
      : 'its skills have no tags';
  return reject(
    'no-tagged-skill',
    `none of its ${cards.length} skill(s) has a tag of tags [${wanted.join(', ')}], so nothing is imported; ${offered}`,
  );
}

function hasTag(tags: readonly string[], wanted: readonly string[]): boolean {
  const want = new Set(wanted.map((t) => t.toLowerCase()));
  return tags.some((t) => want.has(t.toLowerCase()));
}

async function importSkill(
  peer: PeerConfig,
  reader: FeedReader,
  entry: IndexEntry,
  feedUrl: string,
  registry: string | undefined,
): Promise<Skill> {
  const feedSkill = await reader.skill(entry);
  if (feedSkill.card.name !== entry.id) {
    throw reject(
      'inconsistent',
      `skill JSON names "${feedSkill.card.name}" (id "${feedSkill.card.id}"), but index.json lists "${entry.id}"`,
    );
  }
  // The route is known from the card: a cycle is refused before any file is fetched.
  const { origin, via } = route(peer.name, reader.index.registry.name, feedSkill, registry);
  const files = (await reader.files(entry, feedSkill)).map(toSkillFile);

  // SKILL.md is read from its verified bytes, not from the JSON's copy, and validated like a local one.
  const skillMd = files.find((f) => f.path === 'SKILL.md');
  if (!skillMd || skillMd.content === undefined || skillMd.encoding !== 'utf-8')
    throw reject('invalid-skill', 'SKILL.md is missing or not UTF-8 text');
  // A name the peer normalized (written as a title) is fine when it loads under the published id.
  const md = readSkillMarkdown(skillMd.content, {
    folderName: entry.id,
    mode: 'lenient',
    blocking: (p, fm) =>
      p.severity === 'error' || (p.field === 'name' && !(p.rule === 'name-normalized' && fm.name === entry.id)),
  });
  if (!md.ok) {
    const why = md.reasons.map((p) => p.message).join('; ') || 'name or description missing';
    throw reject('invalid-skill', `SKILL.md: ${why}`);
  }
  const { parsed, frontMatter: fm } = md;
  if (fm.registry.visibility !== 'public')
    throw reject('not-public', `visibility is "${fm.registry.visibility}"; only public skills are imported`);

  const skill = assembleSkill({
    parsed,
    frontMatter: fm,
    files,
    digest: entry.digest,
    registry: origin,
    source: {
      kind: 'peer',
      peer: peer.name,
      feed_url: feedUrl,
      ...(via.length > 0 ? { via } : {}),
      // Checked once every peer is read (federate): the origin's key may come from another peer's feed.
      ...(feedSkill.origin_signature ? { origin_signature: feedSkill.origin_signature } : {}),
    },
    health: feedSkill.summary.health,
    updated_at: feedSkill.card.updated_at,
  });
  // The peer's published figures stay the peer's (attributed by their registry), never merged with ours.
  const usage = feedSkill.card.usage;
  if (usage?.usage_version === USAGE_VERSION) skill.usage = usage;
  // The peer's version history is shown as the peer's (what is imported is the version it marks as latest).
  const versions = feedSkill.versions;
  if (versions?.schema === VERSIONS_SCHEMA && versions.history.length > 0)
    skill.history = {
      registry: versions.registry,
      entries: versions.history.map(({ version, date, digest, changes }) => ({ version, date, digest, changes })),
    };
  return skill;
}

/**
 * Where a skill comes from and the route it took. The peer's own skills (its card names the
 * peer's registry) are the peer's; a re-exported one keeps the registry its card names, and
 * the route grows by this peer. A route through `registry` (ours) or through one registry twice
 * is a cycle.
 */
function route(
  peer: string,
  publisher: string,
  skill: FeedSkill,
  registry: string | undefined,
): { origin: string; via: string[] } {
  const own = skill.card.registry === publisher;
  const origin = own ? peer : skill.card.registry;
  const via = own ? [] : [...(skill.card.via ?? []), peer];
  const path = [origin, ...via];
  if (via.length > MAX_VIA) {
    throw reject(
      'federation-route-too-long',
      `"${skill.card.id}" came through ${via.length} registries; a route longer than ${MAX_VIA} is not imported`,
    );
  }
  if ((registry !== undefined && path.includes(registry)) || new Set(path).size !== path.length) {
    throw reject(
      'federation-cycle',
      `"${skill.card.id}" came by ${path.join(' → ')}; a skill that passed through ${registry !== undefined && path.includes(registry) ? `this registry ("${registry}")` : 'one registry twice'} is an import cycle and is not imported back`,
    );
  }
  return { origin, via };
}

/** A verified feed file as a catalog file; its executable bit kept. */
function toSkillFile({ file, bytes }: VerifiedFile): SkillFile {
  if (!bytes)
    return skippedFile(file.path, file.sha256, file.size, file.skipped?.reason ?? 'not published by the peer');
  const stored = storedFile(file.path, bytes);
  return file.executable ? { ...stored, executable: true } : stored;
}
