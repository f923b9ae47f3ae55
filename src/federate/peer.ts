/**
 * Import one peer's feed (v1) into Skill objects — the same model local skills have.
 *
 * Trust nothing: index.json is validated against the zod schema; every part and skill JSON is
 * checked against the sha256 the index lists, every file against the sha256 its skill JSON
 * lists, and the skill's content digest is recomputed. Names follow the specification, paths
 * are relative and clean, and every URL stays on the peer's origin. Anything that fails is
 * left out with a problem naming the peer and the item; the rest of the peer still imports.
 */
import { z } from 'zod';
import { Cards, FeedIndex, FeedSkill } from '../model/feed.ts';
import type { PeerConfig } from '../model/config.ts';
import type { Problem, Skill, SkillFile } from '../model/skill.ts';
import { assembleSkill, checkName, isLoadable, parseSkillMarkdown, skillDigest, skippedFile, storedFile, validateFrontMatter } from '../load/index.ts';
import { pMap } from '../lib/p-map.ts';
import { Cache } from './cache.ts';
import { DigestMismatch, Fetcher } from './fetcher.ts';
import { FetchError } from './http.ts';
import { resolveSameOrigin } from './paths.ts';
import { pathProblem } from '../lib/paths.ts';

export interface PeerContext {
  cache: Cache;
  timeoutMs: number;
  maxBytes: number;
  /** Most bytes downloaded from this peer in one build. */
  maxPeerBytes?: number;
  now: Date;
}

export interface PeerImport {
  skills: Skill[];
  problems: Problem[];
  /** HTTP requests this import sent. */
  requests: number;
  /** The index answered 304 Not Modified. */
  notModified: boolean;
}

/** `…/feed/v1/index.json` as given, or a site root with `feed/v1/index.json` appended. */
export function feedIndexUrl(url: string): string {
  const u = new URL(url);
  if (u.pathname.endsWith('.json')) return u.href;
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  return new URL('feed/v1/index.json', u).href;
}

/** A reason an item was rejected; becomes a Problem naming the peer and the item. */
class Rejected extends Error {
  readonly rule: string;
  constructor(rule: string, message: string) {
    super(message);
    this.rule = rule;
  }
}

function describe(err: unknown): Rejected {
  if (err instanceof Rejected) return err;
  if (err instanceof DigestMismatch) return new Rejected('peer-digest-mismatch', err.message);
  if (err instanceof FetchError) return new Rejected(`peer-${err.rule}`, err.message);
  return new Rejected('peer-error', (err as Error).message);
}

function parseJson<T>(bytes: Buffer, schema: z.ZodType<T>, what: string): T {
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw new Rejected('peer-invalid-json', `${what} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Rejected('peer-invalid-feed', `${what} does not match the feed v1 schema: ${issues.join('; ')}`);
  }
  return parsed.data;
}

export async function importPeer(peer: PeerConfig, ctx: PeerContext): Promise<PeerImport> {
  const problems: Problem[] = [];
  const report = (item: string, err: unknown): void => {
    const r = describe(err);
    problems.push({ severity: 'warning', skill: `peer:${peer.name}`, file: item, rule: r.rule, message: `peer "${peer.name}", ${item}: ${r.message}` });
  };
  const fetcher = new Fetcher(ctx.cache, { timeoutMs: ctx.timeoutMs, maxBytes: ctx.maxBytes, totalBytes: ctx.maxPeerBytes });
  const done = (skills: Skill[], notModified: boolean): PeerImport => ({ skills, problems, requests: fetcher.requests, notModified });

  let feedUrl: string;
  let indexUrl: string;
  let index: FeedIndex;
  let notModified = false;
  try {
    feedUrl = feedIndexUrl(peer.url);
    const res = await fetcher.conditional(feedUrl, ctx.now);
    // Feed URLs are relative to the feed root: resolve them against where the index really is.
    indexUrl = res.url;
    notModified = res.notModified;
    index = parseJson(res.body, FeedIndex, 'index.json');
  } catch (err) {
    report('index.json', err);
    return done([], notModified);
  }

  let entries = index.skills;
  if (peer.mode === 'allowlist') {
    const wanted = new Set(peer.skills);
    entries = entries.filter((e) => wanted.has(e.id));
    for (const name of wanted) {
      if (!entries.some((e) => e.id === name)) report(`skills/${name}`, new Rejected('peer-skill-missing', 'listed in the allowlist but not in the peer feed'));
    }
  } else if (peer.mode === 'tags') {
    // cards.json holds every skill's tags: one (verified, cached) download instead of every skill JSON.
    try {
      const part = index.parts.cards;
      if (!part) throw new Rejected('peer-invalid-feed', 'index.json lists no "cards" part, so skills cannot be chosen by tag');
      const url = resolveSameOrigin(part.url, indexUrl);
      if (!url) throw new Rejected('peer-foreign-url', `cards URL "${part.url}" leaves the peer's origin`);
      const cards = parseJson(await fetcher.verified(url.href, part.sha256), Cards, 'cards.json');
      const tagged = new Set(cards.skills.filter((c) => hasTag(c.tags, peer.tags)).map((c) => c.id));
      entries = entries.filter((e) => tagged.has(e.id));
    } catch (err) {
      report('cards.json', err);
      return done([], notModified);
    }
  }

  const seen = new Set<string>();
  const imported = await pMap(
    entries,
    async (entry) => {
      const item = `skills/${entry.id}`;
      try {
        if (seen.has(entry.id)) throw new Rejected('peer-duplicate-id', `"${entry.id}" is listed twice in index.json`);
        seen.add(entry.id);
        const skill = await importSkill(peer, feedUrl, indexUrl, entry, fetcher);
        if (peer.mode === 'tags' && !hasTag(skill.registry_fields.tags, peer.tags)) return undefined;
        return skill;
      } catch (err) {
        report(item, err);
        return undefined;
      }
    },
    4,
  );
  return done(imported.filter((s): s is Skill => s !== undefined), notModified);
}

function hasTag(tags: readonly string[], wanted: readonly string[]): boolean {
  const want = new Set(wanted.map((t) => t.toLowerCase()));
  return tags.some((t) => want.has(t.toLowerCase()));
}

async function importSkill(
  peer: PeerConfig,
  feedUrl: string,
  indexUrl: string,
  entry: FeedIndex['skills'][number],
  fetcher: Fetcher,
): Promise<Skill> {
  const nameProblems = checkName(entry.id, undefined);
  if (nameProblems.length > 0) throw new Rejected('peer-invalid-name', nameProblems.map((p) => p.message).join('; '));
  const skillUrl = resolveSameOrigin(entry.url, indexUrl);
  if (!skillUrl) throw new Rejected('peer-foreign-url', `skill URL "${entry.url}" leaves the peer's origin`);
  const feedSkill = parseJson(await fetcher.verified(skillUrl.href, entry.sha256), FeedSkill, `${entry.id}.json`);
  if (feedSkill.card.id !== entry.id || feedSkill.card.name !== entry.id) {
    throw new Rejected('peer-inconsistent', `skill JSON names "${feedSkill.card.name}" (id "${feedSkill.card.id}"), but index.json lists "${entry.id}"`);
  }

  // Check every path and URL before fetching anything.
  const paths = new Set<string>();
  const planned = feedSkill.files.map((f) => {
    const unsafe = pathProblem(f.path);
    if (unsafe) throw new Rejected('peer-unsafe-path', `file "${f.path}": path ${unsafe}`);
    if (paths.has(f.path)) throw new Rejected('peer-inconsistent', `file "${f.path}" is listed twice`);
    paths.add(f.path);
    if (f.skipped) return { f, url: undefined };
    if (!f.url) throw new Rejected('peer-invalid-feed', `file "${f.path}" has neither a url nor a skip reason`);
    // Feed URLs are relative to the feed root (the folder holding index.json), in every file.
    const url = resolveSameOrigin(f.url, indexUrl);
    if (!url) throw new Rejected('peer-foreign-url', `file "${f.path}": URL "${f.url}" leaves the peer's origin`);
    return { f, url };
  });
  const files = await pMap(
    planned,
    async ({ f, url }): Promise<SkillFile> => {
      if (!url) {
        const skipped = skippedFile(f.path, undefined, f.size, f.skipped!.reason);
        skipped.sha256 = f.sha256;
        return skipped;
      }
      const bytes = await fetcher.verified(url.href, f.sha256);
      if (bytes.byteLength !== f.size) throw new Rejected('peer-inconsistent', `file "${f.path}" is ${bytes.byteLength} bytes, but the feed says ${f.size}`);
      return storedFile(f.path, bytes);
    },
    4,
  );
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const digest = skillDigest(files.filter((f) => !f.skipped));
  if (digest !== feedSkill.card.digest || digest !== entry.digest) {
    throw new Rejected('peer-digest-mismatch', `content digest of the fetched files is ${digest}, but the feed lists ${feedSkill.card.digest}`);
  }

  // SKILL.md is read from its verified bytes, not from the JSON's copy, and validated like a local one.
  const skillMd = files.find((f) => f.path === 'SKILL.md');
  if (!skillMd || skillMd.content === undefined || skillMd.encoding !== 'utf-8') {
    throw new Rejected('peer-invalid-skill', 'SKILL.md is missing or not UTF-8 text');
  }
  const parsed = parseSkillMarkdown(skillMd.content);
  if (!parsed.ok) throw new Rejected('peer-invalid-skill', `SKILL.md: ${parsed.message}`);
  const fm = validateFrontMatter(parsed.data, { folderName: entry.id, mode: 'lenient' });
  const errors = fm.problems.filter((p) => p.severity === 'error' || p.field === 'name');
  if (errors.length > 0 || !isLoadable(fm)) {
    throw new Rejected('peer-invalid-skill', `SKILL.md: ${errors.map((p) => p.message).join('; ') || 'name or description missing'}`);
  }
  if (fm.registry.visibility !== 'public') {
    throw new Rejected('peer-not-public', `visibility is "${fm.registry.visibility}"; only public skills are imported`);
  }

  return assembleSkill({
    parsed,
    frontMatter: fm,
    files,
    digest,
    registry: peer.name,
    source: { kind: 'peer', peer: peer.name, feed_url: feedUrl },
    health: feedSkill.summary.health,
    updated_at: feedSkill.card.updated_at,
  });
}
