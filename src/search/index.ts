/**
 * Skill search: one index format and ONE ranking, shared by the site (in the browser) and the
 * MCP server. Browser-safe: no node: imports.
 *
 * Two serialized MiniSearch indexes are published in the feed:
 * - `search.json` — name, description, tags, domain, headings and file paths, plus the stored
 *   fields a result card needs (name, description, tags, domain, registry, version). Small: the
 *   site loads it first.
 * - `search-body.json` — the distinct words of each SKILL.md body. Larger, loaded lazily
 *   (`SkillSearch#attachBody`) when a search wants full-text hits.
 *
 * Ranking: prefix + typo-tolerant (fuzzy) matching; field boosts name > description > tags >
 * domain > headings > paths; body hits count with a lower weight; an exact name match wins.
 *
 * ```ts
 * const { search, body } = buildSearchIndexes(entries);      // at build time
 * const s = SkillSearch.load(search, body);                   // site or MCP
 * s.search('pdf extract', { limit: 10, allTokens: true });
 * ```
 */
import MiniSearch, { type Options, type Query, type SearchResult } from 'minisearch';
import { decodeIndex, encodeIndex, type CompactIndex } from './codec.ts';
import { bodyTerms, normalizeBodyTerm, normalizePathTerm, normalizeTerm, tokenizePath, tokenizeText } from './text.ts';

export { extractHeadings, markdownToText, tokenizePath, tokenizeText } from './text.ts';

/** What the feed builder hands over for each public skill. */
export interface SearchEntry {
  id: string;
  name: string;
  description: string;
  tags: string[];
  domain?: string;
  /** Headings of SKILL.md's body. */
  headings: string[];
  /** Every file path of the skill, `/`-separated (`scripts/extract.py`). */
  paths: string[];
  /** SKILL.md body (markdown); goes into the body index only. */
  body: string;
  registry: string;
  version?: string;
}

/** Stored with each document of `search.json`: enough to render a result card. */
export interface SearchDoc {
  id: string;
  name: string;
  description: string;
  tags: string[];
  domain?: string;
  registry: string;
  version?: string;
}

export interface SearchOptions {
  /** At most this many results (default: all). */
  limit?: number;
  /** Keep only the documents this returns true for. */
  filter?: (doc: SearchDoc) => boolean;
  /**
   * Every whitespace-separated query token must match somewhere (name, metadata, file paths
   * or body). Default false: any token may match, more matching tokens rank higher.
   */
  allTokens?: boolean;
  /** Ignore the body index even when it is attached. */
  metadataOnly?: boolean;
}

export interface SearchHit {
  id: string;
  score: number;
  /** Document terms that matched (after prefix / fuzzy expansion). */
  terms: string[];
  /** For each matched term, the fields it matched in (`body` for the body index). */
  match: Record<string, string[]>;
  /** The stored card fields. */
  doc: SearchDoc;
}

/** Serialized form of both indexes (what `search.json` / `search-body.json` hold). */
export interface SerializedIndex {
  format: 'skillpress-search';
  version: 1;
  kind: 'metadata' | 'body';
  index: unknown;
}

export const SEARCH_FORMAT_VERSION = 1;
// (format 1 = MiniSearch 7 JSON with its `index` array rewritten by ./codec.ts)

/** File names of the two indexes inside `feed/v1/`. */
export const SEARCH_FILE = 'search.json';
export const BODY_INDEX_FILE = 'search-body.json';

/** Field boosts: the one ranking site and MCP share. */
export const FIELD_BOOSTS = { name: 6, description: 3, tags: 2.5, domain: 1.5, headings: 1.2, paths: 1 } as const;
/** Body hits count this much relative to a metadata hit. */
export const BODY_WEIGHT = 0.3;
/** A skill whose name equals the query (or one of its tokens) gets its score multiplied by this. */
const EXACT_NAME_BONUS = 3;

const META_FIELDS = Object.keys(FIELD_BOOSTS) as Array<keyof typeof FIELD_BOOSTS>;
const STORED_FIELDS = ['name', 'description', 'tags', 'domain', 'registry', 'version'] as const;
const LIST_FIELDS = new Set(['tags', 'headings', 'paths']);

/** Typo tolerance: none for short terms, one edit from 4 characters, two from 8. */
const fuzzy = (term: string): number | false => (term.length < 4 ? false : term.length < 8 ? 1 : 2);
/** Prefix matching from two characters on (search as you type). */
const prefix = (term: string): boolean => term.length >= 2;

/** Queries are built as trees of single terms, so the leaf tokenizer is the identity. */
const identity = (text: string): string[] => [text];

const metaOptions: Options<Record<string, unknown>> = {
  idField: 'id',
  fields: [...META_FIELDS],
  storeFields: [...STORED_FIELDS],
  // Lists are indexed one item per line (paths are tokenized per line) and stored as arrays.
  stringifyField: (value, field) => (LIST_FIELDS.has(field) && Array.isArray(value) ? value.join('\n') : String(value)),
  tokenize: (text, field) => (field === 'paths' ? text.split('\n').flatMap(tokenizePath) : tokenizeText(text)),
  processTerm: (term, field) => (field === 'paths' ? normalizePathTerm(term) : normalizeTerm(term)),
  searchOptions: { tokenize: identity, processTerm: (t) => normalizePathTerm(t), prefix, fuzzy, boost: { ...FIELD_BOOSTS } },
};

const bodyOptions: Options<Record<string, unknown>> = {
  idField: 'id',
  fields: ['body'],
  storeFields: [],
  tokenize: (text) => text.split(' '),
  processTerm: (term) => normalizeBodyTerm(term),
  // Body: prefix only. Typos are caught by the metadata index; fuzzy matching over the whole
  // vocabulary of every body would cost more time than it finds.
  searchOptions: { tokenize: identity, processTerm: (t) => normalizeBodyTerm(t), prefix },
};

const wrap = (kind: SerializedIndex['kind'], index: MiniSearch<Record<string, unknown>>): SerializedIndex => ({
  format: 'skillpress-search',
  version: SEARCH_FORMAT_VERSION,
  kind,
  // toJSON gives the plain object MiniSearch.loadJS reads back; the codec shrinks its postings.
  index: encodeIndex(index.toJSON()),
});

/** Build both indexes. Entries should come in a stable order (by id) for reproducible output. */
export function buildSearchIndexes(entries: readonly SearchEntry[]): { search: SerializedIndex; body: SerializedIndex } {
  const meta = new MiniSearch(metaOptions);
  const body = new MiniSearch(bodyOptions);
  for (const e of entries) {
    const doc: Record<string, unknown> = {
      id: e.id,
      name: e.name,
      description: e.description,
      tags: e.tags,
      headings: e.headings,
      paths: e.paths,
      registry: e.registry,
    };
    if (e.domain !== undefined) doc.domain = e.domain;
    if (e.version !== undefined) doc.version = e.version;
    meta.add(doc);
    body.add({ id: e.id, body: bodyTerms(e.body) });
  }
  return { search: wrap('metadata', meta), body: wrap('body', body) };
}

function unwrap(json: unknown, kind: SerializedIndex['kind']): unknown {
  const data = typeof json === 'string' ? (JSON.parse(json) as unknown) : json;
  const s = data as Partial<SerializedIndex> | null;
  if (!s || s.format !== 'skillpress-search' || s.kind !== kind) {
    throw new Error(`not a skillpress ${kind} search index (expected format "skillpress-search", kind "${kind}")`);
  }
  if (s.version !== SEARCH_FORMAT_VERSION) {
    throw new Error(`search index version ${String(s.version)} is not supported (this skillpress reads version ${SEARCH_FORMAT_VERSION})`);
  }
  return decodeIndex(s.index as CompactIndex);
}

interface TokenHits {
  score: number;
  match: Record<string, string[]>;
}

/** A query token: the whole token OR all of its word parts (`scripts/extract.py` or scripts + extract + py). */
function tokenQuery(token: string): Query | undefined {
  const parts = tokenizeText(token);
  if (parts.length === 0) return undefined;
  const whole = token.replace(/^[^\p{L}\p{N}/]+|[^\p{L}\p{N}]+$/gu, '');
  const words = parts.filter((p) => p !== whole);
  if (words.length === 0) return whole;
  return { combineWith: 'OR', queries: [whole, { combineWith: 'AND', queries: words }] };
}

export class SkillSearch {
  private readonly meta: MiniSearch<Record<string, unknown>>;
  private body: MiniSearch<Record<string, unknown>> | undefined;

  private constructor(meta: MiniSearch<Record<string, unknown>>, body?: MiniSearch<Record<string, unknown>>) {
    this.meta = meta;
    this.body = body;
  }

  /** Load `search.json` (parsed object or JSON text) and, optionally, the body index. */
  static load(searchJson: unknown, bodyJson?: unknown): SkillSearch {
    const meta = MiniSearch.loadJS(unwrap(searchJson, 'metadata') as never, metaOptions);
    const s = new SkillSearch(meta);
    if (bodyJson !== undefined) s.attachBody(bodyJson);
    return s;
  }

  /** Add the lazily loaded body index (`search-body.json`). */
  attachBody(bodyJson: unknown): void {
    this.body = MiniSearch.loadJS(unwrap(bodyJson, 'body') as never, bodyOptions);
  }

  get hasBody(): boolean {
    return this.body !== undefined;
  }

  get size(): number {
    return this.meta.documentCount;
  }

  /** The stored card fields of one skill, if it is in the index. */
  doc(id: string): SearchDoc | undefined {
    const stored = this.meta.getStoredFields(id);
    return stored ? ({ id, ...stored } as SearchDoc) : undefined;
  }

  /** Every document, in index order (for listing without a query). */
  all(): SearchDoc[] {
    return this.meta.search(MiniSearch.wildcard).map((r) => this.toDoc(r));
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const tokens = [...new Set(query.split(/\s+/).filter(Boolean))];
    const useBody = this.body !== undefined && !options.metadataOnly;
    const perToken: Array<Map<string, TokenHits>> = [];
    for (const token of tokens) {
      const q = tokenQuery(token);
      if (q === undefined) continue; // punctuation only
      const hits = new Map<string, TokenHits>();
      for (const r of this.meta.search(q)) hits.set(r.id as string, { score: r.score, match: { ...r.match } });
      if (useBody) {
        for (const r of this.body!.search(q)) {
          const h = hits.get(r.id as string) ?? { score: 0, match: {} };
          h.score += r.score * BODY_WEIGHT;
          for (const term of Object.keys(r.match)) h.match[term] = [...(h.match[term] ?? []), 'body'];
          hits.set(r.id as string, h);
        }
      }
      perToken.push(hits);
    }
    if (perToken.length === 0) return [];

    const totals = new Map<string, TokenHits>();
    for (const hits of perToken) {
      for (const [id, h] of hits) {
        const t = totals.get(id) ?? { score: 0, match: {} };
        t.score += h.score;
        for (const [term, fields] of Object.entries(h.match)) t.match[term] = [...new Set([...(t.match[term] ?? []), ...fields])];
        totals.set(id, t);
      }
    }

    const wholeQuery = normalizeTerm(query.trim(), 200);
    const tokenSet = new Set(tokens.map((t) => normalizeTerm(t, 200)));
    const out: SearchHit[] = [];
    for (const [id, t] of totals) {
      if (options.allTokens && !perToken.every((hits) => hits.has(id))) continue;
      const doc = this.doc(id);
      if (!doc) continue;
      if (options.filter && !options.filter(doc)) continue;
      const exact = doc.name === wholeQuery ? EXACT_NAME_BONUS * 2 : tokenSet.has(doc.name) ? EXACT_NAME_BONUS : 1;
      out.push({ id, score: t.score * exact, terms: Object.keys(t.match), match: t.match, doc });
    }
    out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return options.limit !== undefined ? out.slice(0, options.limit) : out;
  }

  private toDoc(r: SearchResult): SearchDoc {
    const { id, score: _s, terms: _t, queryTerms: _q, match: _m, ...stored } = r;
    return { id, ...stored } as SearchDoc;
  }
}
