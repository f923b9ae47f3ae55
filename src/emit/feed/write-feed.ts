/**
 * writeFeed: the public catalog → `feed/v1/…`, the discovery index and the skill archives.
 *
 * Only public skills are written; private and group skills are counted as withheld and appear
 * in no file. Skills imported from peers are written only when `config.federation.reexport` is
 * true (scope `published`), or always (scope `catalog`: the site's view, see build.ts).
 * Output is reproducible: the same catalog and SOURCE_DATE_EPOCH give the same bytes.
 */
import { linkSync, mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Catalog, Problem, Skill, SkillFile } from '../../model/skill.ts';
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
  type FeedSkill,
} from '../../model/feed.ts';
import { fileBytes } from '../../load/read-file.ts';
import { rememberLink, rememberSha256, sha256Checked, sha256Hex } from '../../lib/hash.ts';
import { pMap } from '../../lib/p-map.ts';
import type { Embedder } from '../../semantic/embedder.ts';
import { encodeSkillVectors, SKILL_VECTORS_FILE } from '../../semantic/feed-vectors.ts';
import { loadEmbedder } from '../../semantic/load.ts';
import { purposeText } from '../../semantic/skill-vectors.ts';
import {
  BODY_INDEX_FILE,
  SEARCH_FILE,
  buildSearchIndexes,
  extractHeadings,
  type SearchEntry,
} from '../../search/index.ts';
import { bodyTerms } from '../../search/text.ts';
import { codeFingerprint } from '../../lib/fingerprint.ts';
import {
  archiveContext,
  writeArchive,
  type ArchiveContext,
  type ArchiveKind,
  type KeyedEntry,
} from './archive-cache.ts';
import { computeChanges, newsOf, withNews, type PreviousFeed } from './changes.ts';
import { encodePath, pathProblem, quotePath } from '../../lib/paths.ts';
import { resolveInside } from '../../lib/fs.ts';
import { folderMatches, realFolder } from '../../lib/folder-match.ts';
import { FileCache, keptText } from '../../lib/file-cache.ts';
import { publishedBundles } from '../../enable/index.ts';
import { SKILL_MD, fileTokens, skillJson } from './skill-json.ts';
import { versionsBlock, type VersionArchives } from './versions.ts';
import { TokenCounts } from '../../lib/token-counts.ts';
import type { Signer } from '../../lib/signing.ts';
import { originLabel } from '../../model/origin.ts';

import { CATALOG_PATH, DISCOVERY_PATH, FEED_PATH } from '../../lib/layout.ts';
import { errorMessage } from '../../lib/errors.ts';

export interface WriteFeedOptions {
  /** Build output folder; the feed goes to `<outDir>/feed/v1` (or `feedPath`). */
  outDir: string;
  config: SkillpressConfig;
  previous?: PreviousFeed;
  /**
   * The output this one will replace (published scope): an unchanged skill's `files/<id>/` folder
   * that holds exactly the files this build would write (each checked against its sha256) is not
   * written again; it is listed in `keptFolders`, and {@link takeKeptFolders} moves it into the
   * new feed once nothing but the swap is left. On the disks builds run on, making a folder or a
   * file costs far more than reading one back.
   */
  previousOutDir?: string;
  /**
   * Outputs of earlier builds, in the layout `outDir` gets, that stay as they are (`previousOutDir`
   * is one too): a file one of them holds with exactly the bytes this build would write there is
   * hard-linked from it instead of written (most skill JSON of a rebuild).
   */
  linkFrom?: readonly string[];
  /** Seconds since the epoch: generated_at, and the cap of archive mtimes (each skill's `updated_at`). Unset: now, archives at 0. */
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
  /** Told what the feed leaves out and why (the skill vectors, when the model cannot be read). */
  onWarning?: (message: string) => void;
  /** Token counts kept between builds (default: counted afresh). */
  tokens?: TokenCounts;
  /**
   * Folder where the feed keeps work between builds (`.cache/feed`; default: none, everything is
   * made): archives, raw files by sha256 (linked into place, checked, not written again) and the
   * search terms of each SKILL.md body. Deleting it is always safe.
   */
  cacheDir?: string;
  /** This registry's signing key: its own skills' origin statements are signed, its public half published. */
  signer?: Signer;
  /** Warnings about the cache (entries refused and made again), one line each. */
  log?: (line: string) => void;
  /** Earlier versions' archives (published scope): how many per skill, and how to read their files. */
  versions?: VersionArchives;
}

export interface FeedSummary {
  feedDir: string;
  skills: number;
  files: number;
  bytes: number;
  /** Private and group skills left out. */
  withheld: number;
  /** Disabled skills left out (`skills.disabled`, `metadata.enabled: false`). */
  disabled: number;
  /** Imported skills written / left out because federation.reexport is off. */
  imported: number;
  importedNotExported: number;
  /** Files listed with a skip reason instead of stored. */
  skippedFiles: number;
  changes: { added: number; updated: number; removed: number };
  /** Skills whose archives were made in this build, or taken from the archive cache. */
  archives: { built: number; reused: number };
  problems: Problem[];
  /** Skills whose `files/<id>/` folder is to be taken from `previousOutDir` ({@link takeKeptFolders}). */
  keptFolders: string[];
  /**
   * Skills that are only their SKILL.md whose discovery folder (`.well-known/agent-skills/<id>/`,
   * holding that SKILL.md) is to be taken from `previousOutDir` ({@link takeKeptFolders}).
   */
  keptDiscovery: string[];
  /** The output folder written into (absolute). */
  outDir: string;
}

/**
 * Imported from a peer registry. Skills registered by URL (seed 001) belong to this registry's
 * catalog and are published like local ones.
 */
const isImported = (s: Skill): boolean => s.source.kind === 'peer';
const pretty = (x: unknown): string => `${JSON.stringify(x, null, 2)}\n`;
const byId = (a: Skill, b: Skill): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byPath = (a: KeyedEntry, b: KeyedEntry): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** Skills written at once (their archives are compressed on the thread pool meanwhile). */
const SKILL_CONCURRENCY = 16;

/**
 * Writes files under one root, refusing any path that would leave it. Synchronous on purpose,
 * like the reads in src/load/read-file.ts: one open file at a time whatever the file count
 * (an async write per file held 10,000 descriptors open at once, past `ulimit -n`), and a
 * write into the page cache costs less than a trip through the thread pool.
 */
class OutputWriter {
  bytes = 0;
  private readonly root: string;
  /** Outputs of earlier builds (same layout): a file one holds with the same bytes is linked, not written. */
  private readonly sources: readonly string[];
  /** Folders already created, so each is made once. */
  private readonly folders = new Set<string>();
  constructor(root: string, sources: readonly string[] = []) {
    this.root = root;
    this.sources = sources;
  }
  /** Where `rel` goes, its folder made. */
  target(rel: string): string {
    const abs = resolveInside(this.root, rel);
    const dir = path.dirname(abs);
    if (!this.folders.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.folders.add(dir);
    }
    return abs;
  }
  /**
   * Write one file; returns its sha256 and size. When the output being replaced holds the same
   * bytes at the same place (most skill JSON of a rebuild), it is hard-linked from there instead:
   * that output stays whole, and a rebuild writes what changed.
   */
  write(rel: string, data: string | Uint8Array): { sha256: string; bytes: number } {
    const abs = this.target(rel);
    const sha256 = sha256Hex(data);
    if (!this.linkPrevious(rel, abs, sha256)) {
      writeNew(abs, data);
      // The next build checks this file before it links it.
      rememberSha256(abs, sha256);
    }
    const bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
    this.bytes += bytes;
    return { sha256, bytes };
  }
  private linkPrevious(rel: string, abs: string, sha256: string): boolean {
    for (const source of this.sources) {
      const from = path.join(source, ...rel.split('/'));
      const checked = sha256Checked(from);
      if (checked?.sha256 !== sha256) continue;
      try {
        linkSync(from, abs);
        rememberLink(checked.identity, abs);
        return true;
      } catch {
        // Written instead (another file system, a link limit).
      }
    }
    return false;
  }
  /**
   * Write one raw file, whose sha256 the loader computed: a hard link to the copy `cache` keeps
   * under that digest when it holds a sound one (a link costs less than writing the bytes), else
   * written and kept there.
   */
  writeKept(rel: string, data: Uint8Array, sha256: string, cache: FileCache | undefined): void {
    const abs = this.target(rel);
    if (!cache?.place(sha256, abs)) {
      writeFileSync(abs, data);
      cache?.adopt(sha256, abs, sha256);
      // The next build checks this folder before it takes it (keptFolderEntries); a placed entry is remembered by the cache.
      rememberSha256(abs, sha256);
    }
    this.bytes += data.byteLength;
  }
}

/**
 * `data` into a new file at `abs`; one already there (the same path written twice, or linked from
 * the output being replaced) is unlinked first, never written through: a link's other names keep
 * their bytes.
 */
function writeNew(abs: string, data: string | Uint8Array): void {
  try {
    writeFileSync(abs, data, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    unlinkSync(abs);
    writeFileSync(abs, data, { flag: 'wx' });
  }
}

/** What every step of one writeFeed call shares. */
interface FeedContext {
  scope: 'published' | 'catalog';
  feedPath: string;
  reexport: boolean;
  generatedAt: string;
  root: string;
  out: OutputWriter;
  tokens: TokenCounts;
  archives: ArchiveContext;
  /** Raw files kept between builds, by sha256. */
  files: FileCache | undefined;
  /** The body index's terms of each SKILL.md body, kept between builds. */
  bodyTerms: FileCache | undefined;
  opts: WriteFeedOptions;
  /** `<previousOutDir>/<feedPath>/files`, when it is a real folder. */
  previousFiles: string | undefined;
  /** Skills whose file folder is taken from there. */
  kept: string[];
  /** `<previousOutDir>/.well-known/agent-skills` (published scope), when it is a real folder. */
  previousDiscovery: string | undefined;
  /** Skills whose discovery folder is taken from there. */
  keptDiscovery: string[];
}

/** One skill as written: its card, the sha256 of its JSON, its discovery entry and counts. */
interface WrittenSkill {
  skill: Skill;
  card: Card;
  sha256: string;
  disc?: DiscoverySkill;
  problems: Problem[];
  stored: number;
  skipped: number;
}

/**
 * Write the feed of `catalog` into `<outDir>/feed/v1/` (index.json, cards.json, one JSON per
 * skill, every file by sha256, changes.json, the search indexes), the discovery index under
 * `.well-known/agent-skills/` and the archives. Private and group skills are left out. Pass
 * `previous` (from {@link loadPreviousFeed}) for the change list.
 *
 * @example
 * ```ts
 * import { SkillpressConfig, loadCatalog, loadPreviousFeed, writeFeed } from 'skillpress';
 * const catalog = await loadCatalog('skills');
 * const summary = await writeFeed(catalog, {
 *   outDir: 'dist',
 *   config: SkillpressConfig.parse({}),
 *   previous: await loadPreviousFeed('dist'),
 * });
 * console.log(summary.feedDir, summary.skills, summary.changes);
 * ```
 */
export async function writeFeed(catalog: Catalog, opts: WriteFeedOptions): Promise<FeedSummary> {
  const ctx = feedContext(opts);
  const chosen = chooseSkills(catalog, ctx);
  let done = 0;
  const written = await pMap(
    chosen.skills,
    async (skill) => {
      const w = await writeSkill(skill, ctx);
      opts.onProgress?.(++done, chosen.skills.length);
      return w;
    },
    SKILL_CONCURRENCY,
  );
  const problems = [...chosen.problems, ...written.flatMap((w) => w.problems)];
  const cards = written.map((w) => w.card);
  const timeless = writeTimelessParts(written, ctx, await skillEmbedder(ctx));
  ctx.archives.cache?.prune();
  ctx.files?.prune();
  ctx.bodyTerms?.prune();
  const imported = chosen.skills.filter(isImported).length;
  const files = written.reduce((n, w) => n + w.stored, 0);
  const counts = { skills: cards.length, files, withheld: chosen.withheld, imported };
  const news = writeTimedParts(written, timeless, counts, ctx);
  if (ctx.scope === 'published') {
    const signer = ctx.opts.signer;
    const disc: DiscoveryIndex = {
      $schema: DISCOVERY_SCHEMA_URL,
      ...(signer ? { registry: { name: opts.config.registry.name, public_key: signer.publicKey } } : {}),
      skills: written.flatMap((w) => (w.disc ? [w.disc] : [])),
    };
    ctx.out.write(`${DISCOVERY_PATH}/index.json`, pretty(disc));
  }
  const count = (c: string): number => news.filter((x) => x.change === c).length;
  return {
    feedDir: path.join(ctx.root, ...ctx.feedPath.split('/')),
    skills: cards.length,
    files,
    bytes: ctx.out.bytes,
    withheld: chosen.withheld,
    disabled: chosen.disabled,
    imported,
    importedNotExported: chosen.importedNotExported,
    skippedFiles: written.reduce((n, w) => n + w.skipped, 0),
    changes: { added: count('added'), updated: count('updated'), removed: count('removed') },
    archives: { built: ctx.archives.built, reused: ctx.archives.reused },
    problems,
    keptFolders: ctx.kept.sort(),
    keptDiscovery: ctx.keptDiscovery.sort(),
    outDir: ctx.root,
  };
}

function feedContext(opts: WriteFeedOptions): FeedContext {
  const scope = opts.scope ?? 'published';
  const epoch = opts.sourceDateEpoch;
  const root = path.resolve(opts.outDir);
  return {
    scope,
    feedPath: opts.feedPath ?? (scope === 'published' ? FEED_PATH : CATALOG_PATH),
    reexport: opts.config.federation.reexport,
    generatedAt: new Date(epoch !== undefined ? epoch * 1000 : Math.floor(Date.now() / 1000) * 1000).toISOString(),
    root,
    out: new OutputWriter(
      root,
      [opts.previousOutDir, ...(opts.linkFrom ?? [])].flatMap((dir) =>
        dir && realFolder(path.resolve(dir)) ? [path.resolve(dir)] : [],
      ),
    ),
    tokens: opts.tokens ?? TokenCounts.memory(),
    // Only the published scope writes archives: the catalog view leaves their cache unopened.
    archives: archiveContext(
      scope === 'published' && opts.cacheDir ? path.join(opts.cacheDir, 'archives') : undefined,
      opts.log,
    ),
    // Raw files are kept by their own sha256: checked by their bytes, reusable from any machine.
    files: opts.cacheDir
      ? FileCache.open(path.join(opts.cacheDir, 'files'), { kind: 'content', log: opts.log })
      : undefined,
    bodyTerms: opts.cacheDir ? FileCache.open(path.join(opts.cacheDir, 'body-terms'), { log: opts.log }) : undefined,
    opts,
    previousFiles:
      scope === 'published' && opts.previousOutDir
        ? realFolder(path.join(path.resolve(opts.previousOutDir), ...FEED_PATH.split('/'), 'files'))
        : undefined,
    kept: [],
    previousDiscovery:
      scope === 'published' && opts.previousOutDir
        ? realFolder(path.join(path.resolve(opts.previousOutDir), ...DISCOVERY_PATH.split('/')))
        : undefined,
    keptDiscovery: [],
  };
}

/** Who is written, in id order: public only; imported only when re-exported (or for the site's catalog). */
function chooseSkills(
  catalog: Catalog,
  ctx: FeedContext,
): { skills: Skill[]; withheld: number; disabled: number; importedNotExported: number; problems: Problem[] } {
  const problems: Problem[] = [];
  let withheld = 0;
  let disabled = 0;
  let importedNotExported = 0;
  const skills: Skill[] = [];
  for (const s of [...catalog.skills].sort(byId)) {
    // Disabled (skills.disabled, metadata.enabled: false): never published, kept in Elasticsearch.
    if (s.is_enabled === false) {
      disabled++;
      continue;
    }
    if (s.registry_fields.visibility !== 'public') {
      withheld++;
      continue;
    }
    if (!SKILL_NAME_PATTERN.test(s.id)) {
      problems.push({
        severity: 'error',
        skill: s.id,
        field: 'name',
        rule: 'feed-id',
        message: `skill id ${JSON.stringify(s.id)} is not a valid skill name; it was not written to the feed`,
      });
      continue;
    }
    if (isImported(s) && !ctx.reexport && ctx.scope === 'published') {
      importedNotExported++;
      continue;
    }
    skills.push(s);
  }
  return { skills, withheld, disabled, importedNotExported, problems };
}

/** One skill: its raw files, its JSON, and (published scope) its archives and discovery entry. */
async function writeSkill(skill: Skill, ctx: FeedContext): Promise<WrittenSkill> {
  const withArchive = !isImported(skill) || ctx.reexport;
  const tokens = await fileTokens(skill.files, ctx.tokens);
  const { card, skill: json, problems } = skillJson(skill, { withArchive, tokens, signer: ctx.opts.signer });
  const versions = await versionsBlock(skill, {
    archives: ctx.scope === 'published' ? ctx.opts.versions : undefined,
    mtime: archiveMtime(skill, ctx),
    write: (rel, bytes) => void ctx.out.write(rel, bytes),
    imported: isImported(skill),
  });
  if (versions) json.versions = versions;
  const entries = writeRawFiles(skill, json, problems, ctx);
  const written = ctx.out.write(`${ctx.feedPath}/skills/${skill.id}.json`, pretty(json));
  const disc = ctx.scope === 'published' ? await writeArchives(skill, card, entries, ctx) : undefined;
  return {
    skill,
    card,
    sha256: written.sha256,
    disc,
    problems,
    stored: entries.length,
    skipped: skill.files.length - entries.length,
  };
}

/**
 * `files/<id>/<path>` for every stored file, a few at a time. A file that cannot be written is
 * listed as not stored (never a link to nothing) with a reason that names no machine path.
 */
function writeRawFiles(skill: Skill, json: FeedSkill, problems: Problem[], ctx: FeedContext): KeyedEntry[] {
  const kept = keptFolderEntries(skill, ctx);
  if (kept) return kept;
  const listed = new Map(json.files.map((f) => [f.path, f]));
  const entries: KeyedEntry[] = [];
  for (const f of skill.files) {
    if (f.content === undefined || f.skipped) continue;
    const bytes = fileBytes(f);
    const why =
      pathProblem(f.path) ??
      writeOrWhy(() => ctx.out.writeKept(`${ctx.feedPath}/files/${skill.id}/${f.path}`, bytes, f.sha256, ctx.files));
    if (why === undefined) {
      entries.push({ path: f.path, bytes, executable: f.executable, sha256: f.sha256 });
      continue;
    }
    const reason = `path ${quotePath(f.path)} ${why}`;
    problems.push({
      severity: 'error',
      skill: skill.id,
      file: f.path,
      rule: 'feed-path',
      message: `${reason}; the file was not written`,
    });
    const entry = listed.get(f.path)!;
    delete entry.url;
    entry.skipped = { reason: `not published: ${reason}` };
  }
  return entries.sort(byPath);
}

/**
 * The skill's entries when the output being replaced holds its file folder exactly as this build
 * would write it (the folder is then taken from there, not written); undefined otherwise.
 */
function keptFolderEntries(skill: Skill, ctx: FeedContext): KeyedEntry[] | undefined {
  if (!ctx.previousFiles) return undefined;
  const stored = skill.files.filter((f) => f.content !== undefined && !f.skipped);
  // A path this build refuses is reported as it writes the folder: never taken.
  if (stored.length === 0 || stored.some((f) => pathProblem(f.path) !== undefined)) return undefined;
  const expected = new Map(stored.map((f) => [f.path.split('/').join(path.sep), f.sha256]));
  if (folderMatches(path.join(ctx.previousFiles, skill.id), expected) === undefined) return undefined;
  ctx.kept.push(skill.id);
  const entries = stored.map((f) => {
    ctx.out.bytes += storedBytes(f);
    return storedEntry(f);
  });
  return entries.sort(byPath);
}

/** How many bytes a stored file's content stands for, counted without making them. */
const storedBytes = (f: SkillFile): number =>
  Buffer.byteLength(f.content ?? '', f.encoding === 'base64' ? 'base64' : 'utf8');

/**
 * A stored file as an archive entry whose bytes are made from its content only when read: an
 * unchanged skill's archives come from the cache, so most entries of a rebuild never need them.
 */
function storedEntry(f: SkillFile): KeyedEntry {
  let bytes: Buffer | undefined;
  return {
    path: f.path,
    get bytes(): Buffer {
      return (bytes ??= fileBytes(f));
    },
    executable: f.executable,
    sha256: f.sha256,
  };
}

/**
 * Move the file folders `summary.keptFolders` names from the output being replaced
 * (`previousOutDir`) into the new feed. Run last, when nothing but the swap is left: until then
 * the output being replaced stays whole.
 *
 * @example
 * ```ts
 * import { SkillpressConfig, loadCatalog, takeKeptFolders, writeFeed } from 'skillpress';
 * const summary = await writeFeed(await loadCatalog('skills'), {
 *   outDir: 'dist.next',
 *   config: SkillpressConfig.parse({}),
 *   previousOutDir: 'dist',
 * });
 * takeKeptFolders(summary, 'dist');
 * ```
 */
export function takeKeptFolders(summary: FeedSummary, previousOutDir: string): void {
  const previous = path.resolve(previousOutDir);
  const move = (ids: readonly string[], from: string, to: string): void => {
    if (ids.length === 0) return;
    mkdirSync(to, { recursive: true });
    for (const id of ids) renameSync(path.join(from, id), path.join(to, id));
  };
  move(summary.keptFolders, path.join(previous, ...FEED_PATH.split('/'), 'files'), path.join(summary.feedDir, 'files'));
  const discovery = DISCOVERY_PATH.split('/');
  move(summary.keptDiscovery, path.join(previous, ...discovery), path.join(summary.outDir, ...discovery));
}

/**
 * Undefined when `write` succeeded, else why it failed, by error code: the message of a
 * file-system error names the staging folder, which must not be published.
 */
function writeOrWhy(write: () => unknown): string | undefined {
  try {
    write();
    return undefined;
  } catch (err) {
    return `could not be written (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
  }
}

/**
 * The mtime a skill's archives give its files: with SOURCE_DATE_EPOCH, when the skill last
 * changed (capped by it), so that an archive changes only with its skill, not with every push;
 * without it, 0.
 */
function archiveMtime(skill: Skill, ctx: FeedContext): number {
  const epoch = ctx.opts.sourceDateEpoch;
  if (epoch === undefined) return 0;
  const changed = Math.floor(Date.parse(skill.updated_at) / 1000);
  return Number.isFinite(changed) ? Math.min(changed, epoch) : epoch;
}

/** `<id>.tar.gz`, `<id>.zip`, and `<id>/SKILL.md` for a skill that is only its SKILL.md; its discovery entry. */
async function writeArchives(
  skill: Skill,
  card: Card,
  entries: KeyedEntry[],
  ctx: FeedContext,
): Promise<DiscoverySkill> {
  const base = `${DISCOVERY_PATH}/${skill.id}`;
  const archive = (kind: ArchiveKind): ReturnType<typeof writeArchive> => {
    const rel = `${base}.${kind}`;
    const target = {
      path: ctx.out.target(rel),
      write: (bytes: Buffer) => ctx.out.write(rel, bytes),
      placed: (bytes: number) => void (ctx.out.bytes += bytes),
    };
    return writeArchive(kind, entries, archiveMtime(skill, ctx), target, ctx.archives);
  };
  const [targz, zipped] = await Promise.all([archive('tar.gz'), archive('zip')]);
  if (targz.reused && zipped.reused) ctx.archives.reused++;
  else ctx.archives.built++;
  const common = {
    name: skill.name,
    description: skill.description,
    ...(card.version !== undefined ? { version: card.version } : {}),
  };
  if (entries.length === 1 && entries[0]!.path === SKILL_MD) {
    return {
      ...common,
      type: 'skill-md',
      url: `${encodeURIComponent(skill.id)}/${SKILL_MD}`,
      digest: `sha256:${writeSkillMdAlone(skill, entries[0]!, ctx)}`,
    };
  }
  return {
    ...common,
    type: 'archive',
    url: `${encodeURIComponent(skill.id)}.tar.gz`,
    digest: `sha256:${targz.sha256}`,
  };
}

/**
 * `<id>/SKILL.md` of the discovery index, for a skill that is only its SKILL.md; returns its
 * sha256. When the output being replaced holds that folder exactly so, the folder is taken from
 * there ({@link takeKeptFolders}) instead of made again.
 */
function writeSkillMdAlone(skill: Skill, entry: KeyedEntry, ctx: FeedContext): string {
  const expected = new Map([[SKILL_MD, entry.sha256]]);
  const file = skill.files.find((f) => f.path === SKILL_MD && f.content !== undefined);
  if (file && ctx.previousDiscovery && folderMatches(path.join(ctx.previousDiscovery, skill.id), expected) === 1) {
    ctx.keptDiscovery.push(skill.id);
    ctx.out.bytes += storedBytes(file);
    return entry.sha256;
  }
  return ctx.out.write(`${DISCOVERY_PATH}/${skill.id}/${SKILL_MD}`, entry.bytes).sha256;
}

/** The search entry of a written skill; `local`: this registry's name. */
function searchEntry({ skill, card }: WrittenSkill, local: string): SearchEntry {
  const origin = originLabel(card, local);
  return {
    id: skill.id,
    name: skill.name,
    ...(card.title !== undefined ? { title: card.title } : {}),
    description: skill.description,
    tags: card.tags,
    ...(card.domain !== undefined ? { domain: card.domain } : {}),
    headings: extractHeadings(skill.body),
    paths: skill.files.map((f) => f.path),
    body: skill.body,
    registry: skill.registry,
    ...(origin !== undefined ? { origin } : {}),
    ...(card.version !== undefined ? { version: card.version } : {}),
  };
}

/**
 * `bodyTerms` through `cache`: a body's terms are a function of the body and the code that
 * makes them (src/search/text.ts and the stemmer and stop words it uses), so that is their key.
 */
function keptBodyTerms(cache: FileCache | undefined): (markdown: string) => string {
  return cache
    ? keptText(cache, codeFingerprint(import.meta.url, ['../../search/text.ts'], ['porter2', 'stopword']), bodyTerms)
    : bodyTerms;
}

/**
 * The model that embeds each skill's purpose into the feed (`skill-vectors.bin`, read by the MCP
 * server and the site for ranking by meaning); without it (an unreadable model) the feed has no
 * vectors and readers embed the skills themselves or rank by words.
 */
async function skillEmbedder(ctx: FeedContext): Promise<Embedder | undefined> {
  try {
    return await loadEmbedder();
  } catch (err) {
    ctx.opts.onWarning?.(`skill vectors not written: ${errorMessage(err)}`);
    return undefined;
  }
}

/**
 * Each purpose text's vector as the process's last build made it: a process that builds again and
 * again (`skillpress dev`, `skillpress mcp --skills`) embeds only the skills whose card changed.
 */
const lastVectors = new WeakMap<Embedder, Map<string, Float32Array>>();

function skillVectorBytes(embedder: Embedder, cards: readonly Card[]): Uint8Array {
  const before = lastVectors.get(embedder);
  const now = new Map<string, Float32Array>();
  const matrix = new Float32Array(cards.length * embedder.dims);
  cards.forEach((card, i) => {
    const text = purposeText(card);
    const vector = now.get(text) ?? before?.get(text) ?? embedder.embed(text);
    now.set(text, vector);
    matrix.set(vector, i * embedder.dims);
  });
  lastVectors.set(embedder, now);
  return encodeSkillVectors(matrix, embedder.dims);
}

type Parts = FeedIndex['parts'];

/** The search indexes, the skill vectors and the JSON Schemas: the parts that do not carry the build's time. */
function writeTimelessParts(written: WrittenSkill[], ctx: FeedContext, embedder: Embedder | undefined): Parts {
  const parts: Parts = {};
  const part = (key: string, rel: string, data: string | Uint8Array): void => {
    const w = ctx.out.write(`${ctx.feedPath}/${rel}`, data);
    parts[key] = { url: encodePath(rel), sha256: w.sha256, bytes: w.bytes };
  };
  const { search, body } = buildSearchIndexes(
    written.map((w) => searchEntry(w, ctx.opts.config.registry.name)),
    keptBodyTerms(ctx.bodyTerms),
  );
  part('search', SEARCH_FILE, JSON.stringify(search));
  part('search_body', BODY_INDEX_FILE, JSON.stringify(body));
  // In search.json's order: readers pair the rows with its documents.
  const cards = written.map((w) => w.card);
  if (embedder) part('skill_vectors', SKILL_VECTORS_FILE, skillVectorBytes(embedder, cards));
  for (const [name, schema] of Object.entries(PUBLISHED_SCHEMAS)) {
    part(`schema:${name}`, `schemas/${name}.schema.json`, pretty(z.toJSONSchema(schema)));
  }
  return parts;
}

/** changes.json but for its version and time. */
type ChangesBody = Omit<Changes, 'feed_version' | 'generated_at'>;

/** cards.json, changes.json and index.json, in memory. */
interface TimedParts {
  cards: string;
  changes: string;
  index: string;
}

/**
 * Writes cards.json, changes.json and index.json, the parts that carry the build's time, and
 * returns this build's own changes (not the tombstones carried over). A build that changes no skill (nothing added, updated or
 * removed since `previous`) keeps the previous build's news, so a push that changed no skill does
 * not wipe them; and when the feed would then be the previous one byte for byte but for its time,
 * it keeps the previous time too: index.json is the one already published, and peers and MCP
 * servers see nothing new.
 */
function writeTimedParts(
  written: WrittenSkill[],
  timeless: Parts,
  counts: FeedIndex['counts'],
  ctx: FeedContext,
): Changes['changes'] {
  const previous = ctx.opts.previous;
  const cards = written.map((w) => w.card);
  const changeList = computeChanges(cards, previous, ctx.generatedAt);
  const news = newsOf(changeList, previous);
  const quiet = previous !== undefined && news.length === 0;
  const changes: ChangesBody = quiet
    ? {
        ...(previous.previous_generated_at !== undefined && { previous_generated_at: previous.previous_generated_at }),
        changes: withNews(changeList, previous),
      }
    : {
        ...(previous && { previous_generated_at: previous.generated_at }),
        changes: changeList,
      };
  const at = (generatedAt: string): TimedParts =>
    timedParts(written, timeless, counts, { ...changes, generatedAt }, ctx);
  const again = quiet && previous.index_sha256 ? at(previous.generated_at) : undefined;
  const timed = again && sha256Hex(again.index) === previous?.index_sha256 ? again : at(ctx.generatedAt);
  for (const name of ['cards', 'changes', 'index'] as const) ctx.out.write(`${ctx.feedPath}/${name}.json`, timed[name]);
  return news;
}

/** cards.json, changes.json and index.json of a feed made at `generatedAt`, with the other parts as written. */
function timedParts(
  written: WrittenSkill[],
  timeless: Parts,
  counts: FeedIndex['counts'],
  { generatedAt, ...changes }: ChangesBody & { generatedAt: string },
  ctx: FeedContext,
): TimedParts {
  const cardsDoc: Cards = { feed_version: FEED_VERSION, generated_at: generatedAt, skills: written.map((w) => w.card) };
  const texts = {
    cards: pretty(cardsDoc),
    changes: pretty({ feed_version: FEED_VERSION, generated_at: generatedAt, ...changes } satisfies Changes),
  };
  const part = (rel: string, text: string) => ({
    url: encodePath(rel),
    sha256: sha256Hex(text),
    bytes: Buffer.byteLength(text),
  });
  // index.json lists the parts in this order.
  const { search, search_body, skill_vectors, ...schemas } = timeless;
  const parts: Parts = {
    cards: part('cards.json', texts.cards),
    ...(search && { search }),
    ...(search_body && { search_body }),
    ...(skill_vectors && { skill_vectors }),
    changes: part('changes.json', texts.changes),
    ...schemas,
  };
  return { ...texts, index: indexText(written, parts, counts, generatedAt, ctx) };
}

/** `index.json`: the registry, the counts, every part and every skill JSON with its sha256. */
function indexText(
  written: WrittenSkill[],
  parts: Parts,
  counts: FeedIndex['counts'],
  generatedAt: string,
  ctx: FeedContext,
): string {
  const registry = ctx.opts.config.registry;
  const index: FeedIndex = {
    feed_version: FEED_VERSION,
    registry: {
      name: registry.name,
      title: registry.title,
      ...(registry.url !== undefined ? { url: registry.url } : {}),
      ...(registry.description !== undefined ? { description: registry.description } : {}),
      ...(ctx.opts.signer ? { public_key: ctx.opts.signer.publicKey } : {}),
    },
    generated_at: generatedAt,
    counts,
    parts,
    skills: written.map((w) => ({ id: w.skill.id, url: w.card.links.skill, sha256: w.sha256, digest: w.card.digest })),
  };
  const bundles = publishedBundles(
    ctx.opts.config.bundles,
    written.map((w) => w.skill),
  );
  if (bundles.length > 0) index.bundles = bundles;
  return pretty(index);
}
