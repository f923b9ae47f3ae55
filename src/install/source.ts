/**
 * Where a skill is installed from: a skillpress feed (feed/v1, read with the feed reader) or any
 * site with an Agent Skills discovery index (/.well-known/agent-skills/index.json, RFC v0.2.0),
 * reached over HTTP(S) (the guarded client: byte caps, deadlines, same-host redirects) or in a
 * local folder (a built `dist/`). Nothing is read outside the source's root (its origin, or the
 * folder given), and every byte is checked against a digest before it is handed on.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { IntegrityError, InvalidInputError, NetworkError, NotFoundError, UnsafePathError } from '../lib/errors.ts';
import { realpathInside } from '../lib/fs.ts';
import { DISCOVERY_PATH, FEED_PATH } from '../lib/layout.ts';
import { sha256Hex } from '../lib/hash.ts';
import { httpGet } from '../lib/http.ts';
import { checkSchema, parseJsonText } from '../lib/json.ts';
import { DiscoverySkill } from '../model/feed.ts';
import { FeedReader } from '../feed-reader/reader.ts';
import { skillDigest } from '../load/read-file.ts';
import { DirStore, type FeedStore } from '../feed-reader/store.ts';
import { catalogViewBeside } from '../feed-reader/catalog-view.ts';
import { feedIndexUrls } from '../feed-reader/open.ts';
import { DEFAULT_MAX_INDEX_BYTES, RemoteStore } from '../feed-reader/remote-store.ts';
import { unpack, type Files } from './archive.ts';
import { limitText, sizeText } from '../lib/size-text.ts';

export interface Limits {
  timeoutMs: number;
  /** Most bytes of one download or one unpacked archive. */
  maxBytes: number;
}

/** index.json and skill JSON are parsed whole: they are capped lower than downloads (the feed reader's cap for index.json), before parsing. */
const jsonBytesOf = (limits: Limits): number => Math.min(limits.maxBytes, DEFAULT_MAX_INDEX_BYTES);

/** What to install: the files, and the digest that identifies this version of them. */
export interface Package {
  /** The digest the source publishes for this version (feed content digest, or the discovery artifact digest). */
  digest: string;
  version?: string;
  files: Files;
  /** Files the source lists but this install leaves out (not published, or ignored like the build ignores them), with why. */
  missing: Array<{ path: string; reason: string }>;
}

/** A located index: knows the published digest of a skill before downloading it. */
export interface Located {
  indexUrl: string;
  /** The published digest of `name`, or undefined when the index does not list it. */
  digestOf(name: string): string | undefined;
  /** Every skill name the index lists (for "did you mean" when one is not there). */
  names(): string[];
  /** `name` is a valid skill name: install() checks it before locating the source. */
  fetch(name: string): Promise<Package>;
  /**
   * One version of `name` from the skill's published history (skillpress feeds only): its
   * recorded digest, and how to fetch its archive (checked against the archive's sha256, then
   * its files against the recorded digest).
   */
  pinned?(name: string, version: string): Promise<{ digest: string; fetch: () => Promise<Package> }>;
  /** The members of bundle `name` the feed index publishes; undefined when it has no such bundle. */
  bundle?(name: string): string[] | undefined;
  /** When the feed's changes.json holds a tombstone for `name`: the time it was removed (skillpress feeds only). */
  removedAt?(name: string): Promise<string | undefined>;
  /** Where else `name` is, when the index does not list it: a build's catalog view of skills imported and not re-exported. */
  elsewhere?(name: string): Promise<string | undefined>;
}

/** Reads bytes by URL, refusing URLs outside the source root; a NotFoundError when nothing is there. */
interface Site {
  isFolder: boolean;
  /** A URL from an index, relative to `base`; `/…` means the site root (for folders: the folder given). */
  resolve(relative: string, base: URL): URL;
  /** The bytes (at most `maxBytes`), and the URL that answered (after same-host redirects). */
  read(url: URL, maxBytes: number): Promise<{ body: Buffer; url: URL }>;
}

function httpSite(root: URL, limits: Limits): Site {
  return {
    isFolder: false,
    resolve: (relative, base) => new URL(relative, base),
    async read(url, maxBytes) {
      if (url.origin !== root.origin)
        throw new UnsafePathError(`${url} is on another host than ${root.host}; refused`, { rule: 'leaves-site' });
      try {
        const res = await httpGet(url.href, {
          timeoutMs: limits.timeoutMs,
          maxBytes,
          limitName: maxBytes < limits.maxBytes ? 'for JSON documents' : '--max-bytes',
        });
        return { body: res.body, url: new URL(res.url) };
      } catch (err) {
        if (err instanceof NetworkError && err.status === 404) throw new NotFoundError(err.message, { cause: err });
        throw err;
      }
    },
  };
}

function folderSite(root: URL): Site {
  const rootPath = fileURLToPath(root);
  const realRoot = realpathSync(rootPath);
  return {
    isFolder: true,
    resolve: (relative, base) =>
      relative.startsWith('/') && !relative.startsWith('//') ? new URL(`.${relative}`, root) : new URL(relative, base),
    async read(url, maxBytes) {
      if (url.protocol !== 'file:')
        throw new UnsafePathError(`${url} is not inside ${rootPath}; refused`, { rule: 'leaves-site' });
      const file = path.resolve(fileURLToPath(url));
      const st = await stat(file).catch(() => undefined);
      if (!st?.isFile()) throw new NotFoundError(`${file}: no such file`);
      // Resolve links too: a link inside the folder must not lead out of it.
      const real = realpathInside(realRoot, file, file, rootPath);
      if (st.size > maxBytes)
        throw new InvalidInputError(`${file} is ${sizeText(st.size)}, over ${limitText(maxBytes)}`, {
          rule: 'too-large',
        });
      return { body: readFileSync(real), url };
    },
  };
}

/** `source` is a URL or a folder; finds a feed or discovery index under it. */
export async function locate(source: string, limits: Limits): Promise<Located> {
  const { root, siteRoot } = await roots(source);
  const site = root.protocol === 'file:' ? folderSite(siteRoot) : httpSite(siteRoot, limits);
  const candidates = indexCandidates(root);
  const jsonBytes = jsonBytesOf(limits);
  let notJson: InvalidInputError | undefined;
  for (const url of candidates) {
    let found: { body: Buffer; url: URL };
    let data: unknown;
    try {
      found = await site.read(url, jsonBytes);
      data = parseJsonText(found.body, found.url.href, { maxBytes: jsonBytes });
    } catch (err) {
      // Not there, or a site that answers every path with an HTML page: try the next place.
      if (err instanceof NotFoundError) continue;
      if (err instanceof InvalidInputError && err.rule === 'invalid-json') {
        notJson ??= err;
        continue;
      }
      throw err;
    }
    // URLs inside an index resolve against where it really is.
    if (data && typeof data === 'object' && 'feed_version' in data) return feedIndex(site, found, limits);
    return discoveryIndex(site, found.url, data, limits);
  }
  if (notJson) throw notJson;
  throw new NotFoundError(
    `no skillpress feed (feed/v1/index.json) or .well-known/agent-skills/index.json found at ${source}: tried ${candidates.map((u) => (site.isFolder ? fileURLToPath(u) : u.href)).join(', ')}`,
  );
}

/**
 * Where an index may be under the URL given: the feed where every feed reader looks for it (the
 * site root, a feed folder, the site's feed page `…/feed/`), the discovery index second.
 */
function indexCandidates(root: URL): URL[] {
  if (root.pathname.endsWith('.json')) return [root];
  const [feedBelowRoot, ...otherFeedPlaces] = feedIndexUrls(withSlash(root).href, FEED_PATH).map((u) => new URL(u));
  const here = [feedBelowRoot!, new URL(`${DISCOVERY_PATH}/index.json`, withSlash(root)), ...otherFeedPlaces];
  // A skill's page, as the address bar shows it (`…/skills/pdf/`, its files' pages too): the site is above it.
  const page = root.protocol !== 'file:' && /^(.*\/)skills\/[^/]+\/.*$/.exec(withSlash(root).pathname);
  const site = page ? page[1] : undefined;
  return site === undefined ? here : [...here, ...indexCandidates(new URL(site, root))];
}

/** The URL given (a folder as a file: URL) and the site root URLs are confined to (for folders: the one given, or the site holding the index file given). */
async function roots(source: string): Promise<{ root: URL; siteRoot: URL }> {
  if (/^https?:\/\//i.test(source)) {
    const root = new URL(source);
    return { root, siteRoot: new URL('/', root) };
  }
  const abs = path.resolve(source);
  const st = await stat(abs).catch(() => undefined);
  if (!st) throw new NotFoundError(`"${source}" is neither an http(s) URL nor an existing folder`);
  const root = pathToFileURL(st.isDirectory() ? abs + path.sep : abs);
  if (root.pathname.endsWith('/.well-known/agent-skills/index.json'))
    return { root, siteRoot: new URL('../../', root) };
  return { root, siteRoot: root.pathname.endsWith('.json') ? new URL('.', root) : withSlash(root) };
}

function withSlash(url: URL): URL {
  const u = new URL(url.href);
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  return u;
}

/** A feed: read with the feed reader (every file verified, paths checked, the content digest recomputed). */
async function feedIndex(site: Site, found: { body: Buffer; url: URL }, limits: Limits): Promise<Located> {
  const store = site.isFolder
    ? new DirStore(path.dirname(fileURLToPath(found.url)), { maxBytes: limits.maxBytes })
    : new RemoteStore(found.url.href, {
        cache: null,
        index: { body: found.body, url: found.url.href },
        timeoutMs: limits.timeoutMs,
        maxBytes: limits.maxBytes,
        limitName: '--max-bytes',
      });
  const reader = await FeedReader.open(store, { maxJsonBytes: jsonBytesOf(limits) });
  const indexUrl = found.url.href;
  const located: Located = {
    indexUrl,
    digestOf: (name) => reader.entry(name)?.digest,
    names: () => reader.index.skills.map((s) => s.id),
    bundle: (name) => reader.index.bundles?.find((b) => b.name === name)?.skills,
    async removedAt(name) {
      // Only to explain a name the index lacks: a changes.json that cannot be read explains nothing.
      const changes = await reader.changes().catch(() => undefined);
      return changes?.changes.find((c) => c.id === name && c.change === 'removed')?.at;
    },
    elsewhere: (name) => importedBeside(store, name),
    async fetch(name) {
      const { entry, skill, files } = await reader.readSkill(name).catch((err: unknown) => {
        throw explainMissing(err, `skill "${name}" is listed in ${indexUrl}, but one of its parts is missing`);
      });
      const pkg: Package = { digest: entry.digest, version: skill.card.version, files: new Map(), missing: [] };
      for (const { file, bytes } of files) {
        if (bytes) pkg.files.set(file.path, { bytes, executable: file.executable === true });
        else pkg.missing.push({ path: file.path, reason: file.skipped?.reason ?? 'not published' });
      }
      return pkg;
    },
    pinned: (name, version) =>
      pinnedVersion({ site, reader, indexUrl: found.url, limits, latest: () => located.fetch(name) }, name, version),
  };
  return located;
}

/**
 * The catalog view beside a build's own feed folder, when it lists `name`: an aggregator that does
 * not re-export keeps its imported skills there (src/feed-reader/catalog-view.ts).
 */
async function importedBeside(store: FeedStore, name: string): Promise<string | undefined> {
  const view = await catalogViewBeside(store);
  if (!view) return undefined;
  const reader = await FeedReader.open(new DirStore(view)).catch(() => undefined);
  return reader?.entry(name) ? view : undefined;
}

/** A version from the skill JSON's `versions.history`: the latest from the feed itself, an earlier one from its archive. */
async function pinnedVersion(
  feed: { site: Site; reader: FeedReader; indexUrl: URL; limits: Limits; latest: () => Promise<Package> },
  name: string,
  version: string,
): Promise<{ digest: string; fetch: () => Promise<Package> }> {
  const { site, reader, indexUrl, limits } = feed;
  const entry = reader.entry(name);
  if (!entry) throw new NotFoundError(`no skill "${name}" in ${indexUrl.href}`);
  const skill = await reader.skill(entry);
  const history = skill.versions?.history ?? [];
  const found = history.find((v) => v.version === version);
  const latest = skill.versions?.latest ?? skill.card.version;
  const known = [...new Set([latest, ...history.map((v) => v.version)].filter((v) => v !== undefined))];
  if (version === latest) return { digest: entry.digest, fetch: feed.latest };
  if (!found)
    throw new NotFoundError(
      `skill "${name}" has no published version "${version}" in ${indexUrl.href}${known.length ? ` (versions: ${known.join(', ')})` : `: it publishes no versions; install "${name}" without @${version}`}`,
    );
  const archive = found.archive;
  if (!archive)
    throw new NotFoundError(
      `version ${version} of "${name}" is listed but no longer downloadable from ${indexUrl.href} (the build keeps the archives of its newest earlier versions)`,
    );
  return {
    digest: found.digest,
    fetch: async () => {
      const url = site.resolve(archive.url, new URL('.', indexUrl));
      const { body } = await site.read(url, limits.maxBytes);
      const actual = sha256Hex(body);
      if (actual !== archive.sha256)
        throw new IntegrityError(
          `${url.href}: sha256 is ${actual}, but the skill JSON lists ${archive.sha256}; refusing to install`,
          { rule: 'digest-mismatch' },
        );
      const unpacked = await unpack(body, limits.maxBytes);
      const digest = skillDigest([...unpacked.files].map(([p, f]) => ({ path: p, sha256: sha256Hex(f.bytes) })));
      if (digest !== found.digest)
        throw new IntegrityError(
          `${url.href}: its files have digest ${digest}, but version ${version} was recorded as ${found.digest}; refusing to install`,
          { rule: 'digest-mismatch' },
        );
      return { digest: found.digest, version, files: unpacked.files, missing: [] };
    },
  };
}

/** A NotFoundError for a part an index lists but the source does not have, saying what and where. */
function explainMissing(err: unknown, what: string): unknown {
  return err instanceof NotFoundError && !/^no skill /.test(err.message)
    ? new NotFoundError(`${what}: ${err.message}`, { cause: err })
    : err;
}

/** The model's entry, read leniently: a type this client does not install gets its own error below; a description may be missing. */
const DiscoveryEntry = DiscoverySkill.extend({ type: z.string(), description: z.string().optional() });
const DiscoveryIndex = z.object({ $schema: z.string().optional(), skills: z.array(z.unknown()) });

function discoveryIndex(site: Site, url: URL, data: unknown, limits: Limits): Located {
  const index = checkSchema(data, DiscoveryIndex, url.href);
  // Entries of unknown shape or type are skipped, as the RFC asks of clients.
  const find = (name: string) => {
    for (const [i, raw] of index.skills.entries()) {
      if ((raw as { name?: unknown })?.name === name) return checkSchema(raw, DiscoveryEntry, url.href, `skills.${i}`);
    }
    return undefined;
  };
  return {
    indexUrl: url.href,
    digestOf: (name) => find(name)?.digest,
    names: () =>
      index.skills.flatMap((raw) => {
        const name = (raw as { name?: unknown })?.name;
        return typeof name === 'string' ? [name] : [];
      }),
    async fetch(name) {
      const entry = find(name);
      if (!entry) throw new NotFoundError(`no skill "${name}" in ${url.href}`);
      if (entry.type !== 'skill-md' && entry.type !== 'archive') {
        throw new InvalidInputError(
          `skill "${name}" has type "${entry.type}"; this client installs "skill-md" and "archive"`,
          { rule: 'unknown-type' },
        );
      }
      const artifactUrl = site.resolve(entry.url, url);
      const { body } = await site.read(artifactUrl, limits.maxBytes).catch((err: unknown) => {
        throw explainMissing(
          err,
          `the ${entry.type === 'archive' ? 'archive' : 'SKILL.md'} of "${name}" listed in ${url.href} is missing`,
        );
      });
      const actual = sha256Hex(body);
      if (`sha256:${actual}` !== entry.digest) {
        throw new IntegrityError(
          `${artifactUrl.href}: sha256 is ${actual}, but the index lists ${entry.digest.slice('sha256:'.length)}; refusing to install`,
          { rule: 'digest-mismatch' },
        );
      }
      if (entry.type === 'skill-md')
        return {
          digest: entry.digest,
          version: entry.version,
          files: new Map([['SKILL.md', { bytes: body, executable: false }]]),
          missing: [],
        };
      const unpacked = await unpack(body, limits.maxBytes).catch((err: Error) => {
        // Keep the error's class and rule; say which archive.
        err.message = `${artifactUrl.href}: ${err.message}; refusing to install`;
        throw err;
      });
      const missing = unpacked.ignored.map((p) => ({
        path: p,
        reason: 'ignored, as the build ignores it (.git/, __pycache__/, …)',
      }));
      return { digest: entry.digest, version: entry.version, files: unpacked.files, missing };
    },
  };
}
