/**
 * MCP's skills extension (SEP-2640, `io.modelcontextprotocol/skills`) served from the feed: a
 * `SkillSource` for the SDK's `SkillsExtension`, which registers `skills/list`, `skills/get`,
 * `resources/directory/read`, the `skill://{+path}` resource template, and the capability.
 *
 * Entries carry the front matter as in SKILL.md (within SEP-2640's rules) and every published file with its
 * `sha256:` digest, straight from the feed (no file is read to build them).
 */
import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server';
import type { SkillReadResult, SkillSource } from '@modelcontextprotocol/server/ext/skills';
import type { FeedSkill } from '../model/feed.ts';
import type { CatalogCard } from './catalog.ts';
import { UnsafePathError } from '../lib/errors.ts';
import type { CatalogRef } from './tools/shared.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import type { UsageHook } from './usage.ts';
import { parseSkillUri, skillFileUri, skillPathSegments, skillRootUri } from './uris.ts';

/** skills/list, resources/list and directory cursors hold the URI of the last entry served. */
const CURSOR_KIND = 'after';

export const DIRECTORY_MIME_TYPE = 'inode/directory';
export const DEFAULT_PAGE_SIZE = 100;

type Entry = {
  uri: string;
  frontmatter: { name: string; description: string; [k: string]: unknown };
  resources: Array<{ uri: string; digest: string; size: number }>;
};
type DirectoryChild = { uri: string; name: string; mimeType: string; size?: number };

/** The most pages resources/list takes for a catalog (its pages grow past --page-size to keep to it). */
export const RESOURCE_PAGES = 50;

/** With `usage`, skills/get and reading a SKILL.md are recorded as loads. */
export function feedSkillSource(catalog: CatalogRef, pageSize = DEFAULT_PAGE_SIZE, usage?: UsageHook): FeedSkillSource {
  return new FeedSkillSource(catalog, pageSize, usage);
}

/**
 * Pages resources/list as skills/list is (same page size, same cursor; a bad cursor is -32602).
 * The SDK's handler answers every resource at once and ignores the cursor (1,650 skills: 650 KB
 * on connect), so it is replaced: call after the `SkillsExtension` is attached, which installs it.
 * The skills' SKILL.md files are the only resources the server lists.
 */
export function pageResourcesList(mcp: McpServer, source: FeedSkillSource): void {
  mcp.server.setRequestHandler('resources/list', (request) => source.resourcesPage(request.params?.cursor));
}

// No `listResources`: the SDK would list them all through the skill template (see pageResourcesList).
export class FeedSkillSource implements SkillSource {
  readonly #catalog: CatalogRef;
  readonly #pageSize: number;
  readonly #usage: UsageHook | undefined;
  /** Cards in URI order (the order SEP-2640 pages in), per snapshot. */
  #ordered: { version: string; cards: CatalogCard[] } | undefined;

  constructor(catalog: CatalogRef, pageSize: number, usage: UsageHook | undefined) {
    this.#catalog = catalog;
    this.#pageSize = pageSize;
    this.#usage = usage;
  }

  async list({ cursor }: { cursor?: string }) {
    const { items, nextCursor } = pageAfter(
      await this.#inUriOrder(),
      (card) => skillFileUri(card, 'SKILL.md'),
      cursor,
      this.#pageSize,
      'skills/list',
    );
    const skills = await Promise.all(items.map((card) => this.#entry(card)));
    return nextCursor ? { skills, nextCursor } : { skills };
  }

  async get(uri: string) {
    const found = await this.#locate(uri);
    if (!found || found.path !== 'SKILL.md') return undefined;
    const entry = await this.#entry(found.card);
    this.#usage?.load(await this.#catalog(), found.card, 'skills/get');
    return entry;
  }

  async read(uri: string): Promise<SkillReadResult | undefined> {
    const found = await this.#locate(uri);
    if (!found) return undefined;
    const c = await this.#catalog();
    const files = (await c.skill(found.card)).files;
    const file = files.find((f) => f.path === found.path);
    // A folder (the skill's root too) has no content: say where its files are listed.
    const folder = found.path === '' ? '' : `${found.path}/`;
    if (!file && files.some((f) => f.path.startsWith(folder)))
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${uri} is a folder: list its files with resources/directory/read`,
        { uri },
      );
    if (!file) return undefined;
    // Listed in the manifest (with this URI) but not stored: say why, not "Resource not found".
    if (file.skipped)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${uri} is listed but not published: ${file.skipped.reason}`,
        { uri },
      );
    const { bytes } = await c.file(found.card, file.path);
    if (file.path === 'SKILL.md') this.#usage?.load(c, found.card, 'resources/read');
    return file.encoding === 'utf-8'
      ? { text: bytes.toString('utf8'), mimeType: file.mime }
      : { bytes: new Uint8Array(bytes), mimeType: file.mime };
  }

  async readDirectory(uri: string, { cursor }: { cursor?: string }) {
    const found = await this.#locate(uri);
    if (!found) return undefined;
    const children = directoryChildren(found.card, await (await this.#catalog()).skill(found.card), found.path);
    if (!children) return undefined;
    const { items, nextCursor } = pageAfter(
      children,
      (child) => child.uri,
      cursor,
      this.#pageSize,
      'resources/directory/read',
    );
    return nextCursor ? { resources: items, nextCursor } : { resources: items };
  }

  /**
   * One resources/list page: each skill's SKILL.md, in skills/list's order. Pages grow so that a
   * catalog takes at most RESOURCE_PAGES of them: clients that walk the list on connect give up
   * after a number of pages (the TypeScript SDK's `listResources()` after 64).
   */
  async resourcesPage(cursor: string | undefined) {
    const uriOf = (card: CatalogCard) => skillFileUri(card, 'SKILL.md');
    const cards = await this.#inUriOrder();
    const size = Math.max(this.#pageSize, Math.ceil(cards.length / RESOURCE_PAGES));
    const { items, nextCursor } = pageAfter(cards, uriOf, cursor, size, 'resources/list');
    const resources = items.map((card) => ({
      uri: uriOf(card),
      name: card.name,
      description: card.description,
      mimeType: 'text/markdown',
    }));
    return nextCursor ? { resources, nextCursor } : { resources };
  }

  async #inUriOrder(): Promise<CatalogCard[]> {
    const c = await this.#catalog();
    if (this.#ordered?.version !== c.version) {
      const keyed = c.cards.map((card) => ({ card, uri: skillFileUri(card, 'SKILL.md') }));
      keyed.sort((a, b) => byCodeUnit(a.uri, b.uri));
      this.#ordered = { version: c.version, cards: keyed.map((k) => k.card) };
    }
    return this.#ordered.cards;
  }

  async #entry(card: CatalogCard): Promise<Entry> {
    const skill = await (await this.#catalog()).skill(card);
    const resources = skill.files
      .filter((f) => !f.skipped)
      .map((f) => ({ uri: skillFileUri(card, f.path), digest: `sha256:${f.sha256}`, size: f.size }))
      .sort((a, b) => byCodeUnit(a.uri, b.uri));
    return { uri: skillFileUri(card, 'SKILL.md'), frontmatter: servedFrontmatter(skill.frontmatter, card), resources };
  }

  /** The skill a URI points into and the decoded path below the skill's root ('' for the root). */
  async #locate(uri: string): Promise<{ card: CatalogCard; path: string } | undefined> {
    let segments: string[];
    try {
      segments = parseSkillUri(uri);
    } catch (err) {
      if (err instanceof UnsafePathError)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `${err.message}. Skill URIs look like skill://<name>/<path>; list them with skills/list.`,
        );
      throw err;
    }
    const c = await this.#catalog();
    // Skill paths are one segment (the name) or an imported skill's id (`peer/name`).
    for (let n = Math.min(segments.length, 4); n >= 1; n--) {
      const card = c.card(segments.slice(0, n).join('/'));
      if (card && skillPathSegments(card).join('/') === segments.slice(0, n).join('/'))
        return { card, path: segments.slice(n).join('/') };
    }
    return undefined;
  }
}

/**
 * One page of `items` (sorted by URI) after the cursor's URI. A cursor that does not decode is a
 * -32602 error naming the method whose nextCursor to pass.
 */
function pageAfter<T>(
  items: readonly T[],
  uriOf: (item: T) => string,
  cursor: string | undefined,
  pageSize: number,
  method: string,
): { items: T[]; nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    const after = decodeCursor(CURSOR_KIND, cursor);
    if (after === undefined)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid cursor: pass the nextCursor of the previous ${method} result, or none to start over`,
      );
    start = items.findIndex((item) => uriOf(item) > after);
    if (start < 0) start = items.length;
  }
  const page = items.slice(start, start + pageSize);
  return start + pageSize < items.length
    ? { items: page, nextCursor: encodeCursor(CURSOR_KIND, uriOf(page.at(-1)!)) }
    : { items: page };
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The front matter as written in SKILL.md — but for a skill published under a normalized name
 * (its written name, a title such as `Ahrefs Automation`, is not a valid id), whose `name` is the
 * id it is served under: SEP-2640 requires the name to be the last segment of the skill's path.
 * SKILL.md itself is served as written.
 */
function servedFrontmatter(frontmatter: Record<string, unknown>, card: CatalogCard): Entry['frontmatter'] {
  const fm = { ...(frontmatter as Entry['frontmatter']) };
  if (fm.name !== card.name) fm.name = card.name;
  // The build loads (with a warning) what SEP-2640 refuses, and the SDK drops an entry that breaks
  // its rules from skills/list: the entry is brought within them instead, as the name is.
  if (typeof fm.description === 'string' && [...fm.description].length > MAX_DESCRIPTION)
    fm.description = cutTo(fm.description, MAX_DESCRIPTION);
  if (fm.metadata !== undefined) fm.metadata = stringMap(fm.metadata);
  const compatibility = fm.compatibility;
  if (compatibility !== undefined) {
    if (typeof compatibility !== 'string' || compatibility === '') delete fm.compatibility;
    else if ([...compatibility].length > MAX_COMPATIBILITY) fm.compatibility = cutTo(compatibility, MAX_COMPATIBILITY);
  }
  return fm;
}

/** SEP-2640's limits (characters), as the specification's. */
const MAX_DESCRIPTION = 1024;
const MAX_COMPATIBILITY = 500;

/** The first `max` characters (code points), the last one an ellipsis. */
const cutTo = (text: string, max: number): string => `${[...text].slice(0, max - 1).join('')}…`;

/** Metadata as SEP-2640 wants it, strings to strings: other values as JSON (`2` → `"2"`), nulls left out. */
function stringMap(metadata: unknown): Record<string, string> {
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return {};
  // fromEntries defines each key as its own property (`__proto__` stays a key).
  return Object.fromEntries(
    Object.entries(metadata)
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]),
  );
}

/** Direct children of folder `dir` ('' = the skill root), or undefined when it is not a folder. */
function directoryChildren(card: CatalogCard, skill: FeedSkill, dir: string): DirectoryChild[] | undefined {
  const prefix = dir === '' ? '' : `${dir}/`;
  const folders = new Set<string>();
  const children: DirectoryChild[] = [];
  for (const file of skill.files) {
    if (file.skipped || !file.path.startsWith(prefix)) continue;
    const rest = file.path.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash < 0)
      children.push({ uri: skillFileUri(card, file.path), name: rest, mimeType: file.mime, size: file.size });
    else folders.add(rest.slice(0, slash));
  }
  if (children.length === 0 && folders.size === 0) return undefined;
  for (const folder of folders) {
    children.push({
      uri: dir === '' ? `${skillRootUri(card)}/${encodeURIComponent(folder)}` : skillFileUri(card, `${dir}/${folder}`),
      name: folder,
      mimeType: DIRECTORY_MIME_TYPE,
    });
  }
  return children.sort((a, b) => byCodeUnit(a.uri, b.uri));
}
