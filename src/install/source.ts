/**
 * Where a skill is installed from: a skillpress feed (feed/v1) or any site with an Agent
 * Skills discovery index (/.well-known/agent-skills/index.json, RFC v0.2.0), reached over
 * HTTP(S) or in a local folder (a built `dist/`). Both are read through URLs (http:, https:,
 * file:) that must stay under the source's root, and every byte is checked against a digest
 * before it is handed on.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { FeedIndex, FeedSkill } from '../model/feed.ts';
import { checkName, skillDigest } from '../load/index.ts';
import { sha256Hex } from '../lib/hash.ts';
import { FetchError, get, sameHost } from '../federate/http.ts';
import { pathProblem } from '../lib/paths.ts';
import { unpack, type Files } from './archive.ts';

export class InstallError extends Error {}

export interface Limits {
  timeoutMs: number;
  maxBytes: number;
}

/** Reads bytes by URL, refusing URLs outside the source root. */
interface Reader {
  root: URL;
  /** The most bytes one file (or one unpacked archive) may hold. */
  maxBytes: number;
  /** A URL from an index, relative to `base`; `/…` means the site root (for folders: the folder given). */
  resolve(relative: string, base: URL): URL;
  /** The bytes, and the URL that answered (after same-host redirects). */
  read(url: URL): Promise<{ body: Buffer; url: URL }>;
}

class NotFound extends Error {}

function httpReader(root: URL, limits: Limits): Reader {
  return {
    root,
    maxBytes: limits.maxBytes,
    resolve: (relative, base) => new URL(relative, base),
    async read(url) {
      if (url.origin !== root.origin) throw new InstallError(`${url} is on another host than ${root.host}; refused`);
      try {
        const res = await get(url.href, { ...limits, allowRedirect: sameHost, limitName: '--max-bytes' });
        return { body: res.body, url: new URL(res.url) };
      } catch (err) {
        if (err instanceof FetchError && err.status === 404) throw new NotFound(url.href);
        throw new InstallError((err as Error).message);
      }
    },
  };
}

function folderReader(root: URL, limits: Limits): Reader {
  const rootPath = fileURLToPath(root);
  return {
    root,
    maxBytes: limits.maxBytes,
    resolve: (relative, base) => (relative.startsWith('/') && !relative.startsWith('//') ? new URL(`.${relative}`, root) : new URL(relative, base)),
    async read(url) {
      if (url.protocol !== 'file:') throw new InstallError(`${url} is not inside ${rootPath}; refused`);
      const file = path.resolve(fileURLToPath(url));
      const st = await stat(file).catch(() => undefined);
      if (!st?.isFile()) throw new NotFound(file);
      // Resolve links too: a link inside the folder must not lead out of it.
      const [real, realRoot] = await Promise.all([realpath(file), realpath(rootPath)]);
      if (!real.startsWith(realRoot + path.sep)) throw new InstallError(`${file} is outside ${rootPath}; refused`);
      if (st.size > limits.maxBytes) throw new InstallError(`${file} is ${st.size} bytes, over the ${limits.maxBytes}-byte limit`);
      return { body: await readFile(file), url };
    },
  };
}

/** What to install: the files, and the digest that identifies this version of them. */
export interface Package {
  /** The digest the source publishes for this version (feed content digest, or the discovery artifact digest). */
  digest: string;
  version?: string;
  files: Files;
  /** Files the source lists but does not publish (over its size limit), with why. */
  missing: Array<{ path: string; reason: string }>;
}

/** A located index: knows the remote digest of a skill before downloading it. */
export interface Located {
  indexUrl: string;
  /** The published digest of `name`, or undefined when the index does not list it. */
  digestOf(name: string): string | undefined;
  fetch(name: string): Promise<Package>;
}

const DiscoveryEntry = z.object({
  name: z.string(),
  type: z.string(),
  description: z.string().optional(),
  version: z.string().optional(),
  url: z.string(),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/, 'digest must be "sha256:" and 64 hex digits'),
});
const DiscoveryIndex = z.object({ $schema: z.string().optional(), skills: z.array(z.unknown()) });

/** `source` is a URL or a folder; finds a feed or discovery index under it. */
export async function locate(source: string, limits: Limits): Promise<Located> {
  const isUrl = /^https?:\/\//i.test(source);
  let root: URL;
  if (isUrl) root = new URL(source);
  else {
    const abs = path.resolve(source);
    const st = await stat(abs).catch(() => undefined);
    if (!st) throw new InstallError(`"${source}" is neither an http(s) URL nor an existing folder`);
    root = pathToFileURL(st.isDirectory() ? abs + path.sep : abs);
  }
  const candidates = root.pathname.endsWith('.json')
    ? [root]
    : ['feed/v1/index.json', '.well-known/agent-skills/index.json', 'index.json'].map((rel) => new URL(rel, withSlash(root)));
  // The reader's root is the site (for URLs: the origin; for folders: the folder given, or the one holding the index file).
  const readerRoot = isUrl
    ? new URL('/', root)
    : root.pathname.endsWith('/.well-known/agent-skills/index.json')
      ? new URL('../../', root)
      : root.pathname.endsWith('.json')
        ? new URL('.', root)
        : withSlash(root);
  const reader = isUrl ? httpReader(readerRoot, limits) : folderReader(readerRoot, limits);
  let notJson: InstallError | undefined;
  for (const url of candidates) {
    let found: { body: Buffer; url: URL };
    try {
      found = await reader.read(url);
    } catch (err) {
      if (err instanceof NotFound) continue;
      throw err;
    }
    let data: unknown;
    try {
      data = parseJson(found.body, url.href);
    } catch (err) {
      // Sites that answer every path with an HTML page: try the next place.
      notJson ??= err as InstallError;
      continue;
    }
    // URLs inside an index resolve against where it really is.
    if (data && typeof data === 'object' && 'feed_version' in data) return feedIndex(reader, found.url, data);
    return discoveryIndex(reader, found.url, data);
  }
  if (notJson) throw notJson;
  throw new InstallError(`no skillpress feed (feed/v1/index.json) or .well-known/agent-skills/index.json found at ${source}`);
}

function withSlash(url: URL): URL {
  const u = new URL(url.href);
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  return u;
}

function parseJson(bytes: Buffer, where: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw new InstallError(`${where} is not valid JSON: ${(err as Error).message}`);
  }
}

function schemaError(where: string, error: z.ZodError): InstallError {
  return new InstallError(`${where}: ${error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
}

function verify(bytes: Buffer, sha256: string, what: string): void {
  const actual = sha256Hex(bytes);
  if (actual !== sha256) throw new InstallError(`${what}: sha256 is ${actual}, but the index lists ${sha256}; refusing to install`);
}

function requireValidName(name: string): void {
  const problems = checkName(name, undefined);
  if (problems.length > 0) throw new InstallError(`skill name "${name}" is not valid: ${problems.map((p) => p.message).join('; ')}`);
}

function feedIndex(reader: Reader, url: URL, data: unknown): Located {
  const parsed = FeedIndex.safeParse(data);
  if (!parsed.success) throw schemaError(url.href, parsed.error);
  const index = parsed.data;
  return {
    indexUrl: url.href,
    digestOf: (name) => index.skills.find((s) => s.id === name)?.digest,
    async fetch(name) {
      const entry = index.skills.find((s) => s.id === name);
      if (!entry) throw new InstallError(`no skill "${name}" in ${url.href}`);
      requireValidName(entry.id);
      const skillUrl = reader.resolve(entry.url, url);
      const skillBytes = (await reader.read(skillUrl)).body;
      verify(skillBytes, entry.sha256, skillUrl.href);
      const skill = FeedSkill.safeParse(parseJson(skillBytes, skillUrl.href));
      if (!skill.success) throw schemaError(skillUrl.href, skill.error);
      const files: Files = new Map();
      const missing: Package['missing'] = [];
      const hashes: Array<{ path: string; sha256: string }> = [];
      for (const f of skill.data.files) {
        const unsafe = pathProblem(f.path);
        if (unsafe) throw new InstallError(`${skillUrl.href}: file "${f.path}": path ${unsafe}; refusing to install`);
        if (f.skipped || !f.url) {
          missing.push({ path: f.path, reason: f.skipped?.reason ?? 'no url' });
          continue;
        }
        const fileUrl = reader.resolve(f.url, url); // feed URLs are relative to the feed root
        const bytes = (await reader.read(fileUrl)).body;
        verify(bytes, f.sha256, `${name}/${f.path}`);
        files.set(f.path, bytes);
        hashes.push({ path: f.path, sha256: f.sha256 });
      }
      const digest = skillDigest(hashes);
      if (digest !== entry.digest) throw new InstallError(`${name}: content digest is ${digest}, but the index lists ${entry.digest}; refusing to install`);
      return { digest, version: skill.data.card.version, files, missing };
    },
  };
}

function discoveryIndex(reader: Reader, url: URL, data: unknown): Located {
  const parsed = DiscoveryIndex.safeParse(data);
  if (!parsed.success) throw schemaError(url.href, parsed.error);
  // Entries of unknown shape or type are skipped, as the RFC asks of clients.
  const find = (name: string) => {
    for (const raw of parsed.data.skills) {
      const entry = DiscoveryEntry.safeParse(raw);
      if (entry.success && entry.data.name === name) return entry.data;
      if (!entry.success && (raw as { name?: unknown })?.name === name) throw schemaError(`${url.href}: skill "${name}"`, entry.error);
    }
    return undefined;
  };
  return {
    indexUrl: url.href,
    digestOf: (name) => find(name)?.digest,
    async fetch(name) {
      const entry = find(name);
      if (!entry) throw new InstallError(`no skill "${name}" in ${url.href}`);
      requireValidName(entry.name);
      if (entry.type !== 'skill-md' && entry.type !== 'archive') {
        throw new InstallError(`skill "${name}" has type "${entry.type}"; this client installs "skill-md" and "archive"`);
      }
      const artifactUrl = reader.resolve(entry.url, url);
      const bytes = (await reader.read(artifactUrl)).body;
      verify(bytes, entry.digest.slice('sha256:'.length), artifactUrl.href);
      let files: Files;
      if (entry.type === 'skill-md') files = new Map([['SKILL.md', bytes]]);
      else {
        try {
          files = await unpack(bytes, reader.maxBytes);
        } catch (err) {
          throw new InstallError(`${artifactUrl.href}: ${(err as Error).message}; refusing to install`);
        }
      }
      return { digest: entry.digest, version: entry.version, files, missing: [] };
    },
  };
}
