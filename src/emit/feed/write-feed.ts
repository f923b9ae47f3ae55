/**
 * writeFeed: the public catalog → `feed/v1/…`, the discovery index and the skill archives.
 *
 * Only public skills are written; private and group skills are counted as withheld and appear
 * in no file. Skills imported from peers are written only when `config.federation.reexport` is
 * true (scope `published`), or always (scope `catalog`: the site's view, see build.ts).
 * Output is reproducible: the same catalog and SOURCE_DATE_EPOCH give the same bytes.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Catalog, Problem, Skill } from '../../model/skill.ts';
import { SKILL_NAME_PATTERN } from '../../model/skill.ts';
import type { SkillpressConfig } from '../../model/config.ts';
import {
  DISCOVERY_SCHEMA_URL,
  FEED_VERSION,
  PUBLISHED_SCHEMAS,
  type Card,
  type Cards,
  type Changes,
  type DiscoveryIndex,
  type DiscoverySkill,
  type FeedIndex,
} from '../../model/feed.ts';
import { fileBytes } from '../../load/read-file.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { pMap } from '../../lib/p-map.ts';
import { BODY_INDEX_FILE, SEARCH_FILE, buildSearchIndexes, extractHeadings, type SearchEntry } from '../../search/index.ts';
import { tarGz, zip, type ArchiveEntry } from './archive.ts';
import { computeChanges, type PreviousFeed } from './changes.ts';
import { encodePath } from '../../lib/paths.ts';
import { resolveInside } from '../../lib/fs.ts';
import { SKILL_MD, skillJson, type TokenCache } from './skill-json.ts';

export const FEED_PATH = 'feed/v1';
export const CATALOG_PATH = 'catalog/v1';
export const DISCOVERY_PATH = '.well-known/agent-skills';

export interface WriteFeedOptions {
  /** Build output folder; the feed goes to `<outDir>/feed/v1` (or `feedPath`). */
  outDir: string;
  config: SkillpressConfig;
  previous?: PreviousFeed;
  /** Seconds since the epoch: generated_at and archive mtimes. Unset: now, archives at 0. */
  sourceDateEpoch?: number;
  /**
   * `published` (default): what this registry publishes to peers — local public skills, plus
   * imported ones when federation.reexport is on; also writes the discovery index and archives.
   * `catalog`: every public skill including imported ones, for the site; no discovery index.
   */
  scope?: 'published' | 'catalog';
  /** Folder below outDir (default `feed/v1` for published, `catalog/v1` for catalog). */
  feedPath?: string;
  onProgress?: (done: number, total: number) => void;
}

export interface FeedSummary {
  feedDir: string;
  skills: number;
  files: number;
  bytes: number;
  /** Private and group skills left out. */
  withheld: number;
  /** Imported skills written / left out because federation.reexport is off. */
  imported: number;
  importedNotExported: number;
  /** Files listed with a skip reason instead of stored. */
  skippedFiles: number;
  changes: { added: number; updated: number; removed: number };
  problems: Problem[];
}

/**
 * Imported from a peer registry. Skills registered by URL (seed 001) belong to this registry's
 * catalog and are published like local ones.
 */
const isImported = (s: Skill): boolean => s.source.kind === 'peer';
const pretty = (x: unknown): string => `${JSON.stringify(x, null, 2)}\n`;

/** Writes files under one root, refusing any path that would leave it. */
class OutputWriter {
  bytes = 0;
  private readonly root: string;
  /** Folders already created (or being created), so each is made once. */
  private readonly folders = new Map<string, Promise<unknown>>();
  constructor(root: string) {
    this.root = root;
  }
  /** Write one file; its sha256 is computed only when asked for (raw files carry theirs already). */
  async write(rel: string, data: string | Uint8Array, hash = true): Promise<{ sha256: string; bytes: number }> {
    const abs = resolveInside(this.root, rel);
    const dir = path.dirname(abs);
    let made = this.folders.get(dir);
    if (!made) {
      made = mkdir(dir, { recursive: true });
      this.folders.set(dir, made);
    }
    await made;
    await writeFile(abs, data);
    const bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
    this.bytes += bytes;
    return { sha256: hash ? sha256Hex(data) : '', bytes };
  }
}

export async function writeFeed(catalog: Catalog, opts: WriteFeedOptions): Promise<FeedSummary> {
  const scope = opts.scope ?? 'published';
  const feedPath = opts.feedPath ?? (scope === 'published' ? FEED_PATH : CATALOG_PATH);
  const reexport = opts.config.federation.reexport;
  const epoch = opts.sourceDateEpoch;
  const generatedAt = new Date(epoch !== undefined ? epoch * 1000 : Math.floor(Date.now() / 1000) * 1000).toISOString();
  const archiveMtime = epoch ?? 0;
  const problems: Problem[] = [];

  // Who is written: public only; imported only when re-exported (or for the site's catalog).
  let withheld = 0;
  let importedNotExported = 0;
  const skills: Skill[] = [];
  for (const s of [...catalog.skills].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    if (s.registry_fields.visibility !== 'public') {
      withheld++;
      continue;
    }
    if (!SKILL_NAME_PATTERN.test(s.id)) {
      problems.push({ severity: 'error', skill: s.id, field: 'name', rule: 'feed-id', message: `skill id ${JSON.stringify(s.id)} is not a valid skill name; it was not written to the feed` });
      continue;
    }
    if (isImported(s) && !reexport && scope === 'published') {
      importedNotExported++;
      continue;
    }
    skills.push(s);
  }
  const published = (s: Skill): boolean => !isImported(s) || reexport;

  const root = path.resolve(opts.outDir);
  const out = new OutputWriter(root);
  const feed = (rel: string): string => `${feedPath}/${rel}`;
  const tokens: TokenCache = new Map();
  const cards: Card[] = [];
  const skillParts: FeedIndex['skills'] = [];
  const discovery: DiscoverySkill[] = [];
  const searchEntries: SearchEntry[] = [];
  let files = 0;
  let skippedFiles = 0;
  let done = 0;

  const results = await pMap(
    skills,
    async (skill) => {
      const withArchive = published(skill);
      const { card, skill: json, problems: p } = skillJson(skill, { withArchive, tokens });
      const stored = skill.files.filter((f) => f.content !== undefined && !f.skipped);
      const entries: ArchiveEntry[] = [];
      await Promise.all(
        stored.map(async (f) => {
          const bytes = fileBytes(f);
          try {
            await out.write(feed(`files/${skill.id}/${f.path}`), bytes, false);
            entries.push({ path: f.path, bytes, executable: f.executable });
          } catch (err) {
            p.push({ severity: 'error', skill: skill.id, file: f.path, rule: 'feed-path', message: `${(err as Error).message}; the file was not written` });
            // List it as not stored rather than point at a file that does not exist.
            const listed = json.files.find((x) => x.path === f.path);
            if (listed) {
              delete listed.url;
              listed.skipped = { reason: `not published: ${(err as Error).message}` };
            }
          }
        }),
      );
      entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      const written = await out.write(feed(`skills/${skill.id}.json`), pretty(json));
      let disc: DiscoverySkill | undefined;
      if (scope === 'published') {
        const base = `${DISCOVERY_PATH}/${skill.id}`;
        const targz = await tarGz(entries, archiveMtime);
        await Promise.all([out.write(`${base}.tar.gz`, targz, false), zip(entries, archiveMtime).then((z) => out.write(`${base}.zip`, z, false))]);
        const onlySkillMd = entries.length === 1 && entries[0]!.path === SKILL_MD;
        const common = { name: skill.name, description: skill.description, ...(card.version !== undefined ? { version: card.version } : {}) };
        if (onlySkillMd) {
          const md = await out.write(`${base}/${SKILL_MD}`, entries[0]!.bytes);
          disc = { ...common, type: 'skill-md', url: `${encodeURIComponent(skill.id)}/${SKILL_MD}`, digest: `sha256:${md.sha256}` };
        } else {
          disc = { ...common, type: 'archive', url: `${encodeURIComponent(skill.id)}.tar.gz`, digest: `sha256:${sha256Hex(targz)}` };
        }
      }
      opts.onProgress?.(++done, skills.length);
      return { skill, card, written, disc, problems: p, stored: entries.length, skipped: skill.files.length - entries.length };
    },
    16,
  );

  for (const r of results) {
    cards.push(r.card);
    skillParts.push({ id: r.skill.id, url: r.card.links.skill, sha256: r.written.sha256, digest: r.card.digest });
    if (r.disc) discovery.push(r.disc);
    problems.push(...r.problems);
    files += r.stored;
    skippedFiles += r.skipped;
    searchEntries.push({
      id: r.skill.id,
      name: r.skill.name,
      description: r.skill.description,
      tags: r.card.tags,
      ...(r.card.domain !== undefined ? { domain: r.card.domain } : {}),
      headings: extractHeadings(r.skill.body),
      paths: r.skill.files.map((f) => f.path),
      body: r.skill.body,
      registry: r.skill.registry,
      ...(r.card.version !== undefined ? { version: r.card.version } : {}),
    });
  }

  const parts: FeedIndex['parts'] = {};
  const part = async (key: string, rel: string, data: string): Promise<void> => {
    const w = await out.write(feed(rel), data);
    parts[key] = { url: encodePath(rel), sha256: w.sha256, bytes: w.bytes };
  };

  const cardsDoc: Cards = { feed_version: FEED_VERSION, generated_at: generatedAt, skills: cards };
  await part('cards', 'cards.json', pretty(cardsDoc));

  const { search, body } = buildSearchIndexes(searchEntries);
  await part('search', SEARCH_FILE, JSON.stringify(search));
  await part('search_body', BODY_INDEX_FILE, JSON.stringify(body));

  const changeList = computeChanges(cards, opts.previous, generatedAt);
  const changesDoc: Changes = {
    feed_version: FEED_VERSION,
    generated_at: generatedAt,
    ...(opts.previous ? { previous_generated_at: opts.previous.generated_at } : {}),
    changes: changeList,
  };
  await part('changes', 'changes.json', pretty(changesDoc));

  for (const [name, schema] of Object.entries(PUBLISHED_SCHEMAS)) {
    await part(`schema:${name}`, `schemas/${name}.schema.json`, pretty(z.toJSONSchema(schema)));
  }

  const imported = skills.filter(isImported).length;
  const index: FeedIndex = {
    feed_version: FEED_VERSION,
    registry: {
      name: opts.config.registry.name,
      title: opts.config.registry.title,
      ...(opts.config.registry.url !== undefined ? { url: opts.config.registry.url } : {}),
      ...(opts.config.registry.description !== undefined ? { description: opts.config.registry.description } : {}),
    },
    generated_at: generatedAt,
    counts: { skills: cards.length, files, withheld, imported },
    parts,
    skills: skillParts,
  };
  await out.write(feed('index.json'), pretty(index));

  if (scope === 'published') {
    const disc: DiscoveryIndex = { $schema: DISCOVERY_SCHEMA_URL, skills: discovery };
    await out.write(`${DISCOVERY_PATH}/index.json`, pretty(disc));
  }

  const count = (c: string): number => changeList.filter((x) => x.change === c && x.at === generatedAt).length;
  return {
    feedDir: path.join(root, ...feedPath.split('/')),
    skills: cards.length,
    files,
    bytes: out.bytes,
    withheld,
    imported,
    importedNotExported,
    skippedFiles,
    changes: { added: count('added'), updated: count('updated'), removed: count('removed') },
    problems,
  };
}
