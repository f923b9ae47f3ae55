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
 * Body words match exactly, or as a prefix from 4 characters, never fuzzily.
 *
 * MiniSearch builds the indexes; queries run on ./term-index.ts, which reads the same files into
 * sorted terms and typed-array postings and scores exactly as MiniSearch does (BM25+, its prefix
 * and fuzzy weights), with per-document scores in dense arrays: a tenth of the memory and time.
 *
 * ```ts
 * const { search, body } = buildSearchIndexes(entries);      // at build time
 * const s = SkillSearch.load(search, body);                   // site or MCP
 * s.search('pdf extract', { limit: 10, allTokens: true });
 * ```
 */
import MiniSearch, { type Options } from 'minisearch';
import { encodeIndex, type CompactIndex } from './codec.ts';
import { TermIndex } from './term-index.ts';
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
const fuzzy = (term: string): number => (term.length < 4 ? 0 : term.length < 8 ? 1 : 2);
/** Prefix matching from two characters on (search as you type). */
const prefix = (term: string): boolean => term.length >= 2;
/**
 * Body words match exactly, and as a prefix from four characters on: a short prefix ("tra")
 * matches hundreds of body words and so thousands of skills, which says little and costs most.
 * Never fuzzy: typos are caught by the metadata index.
 */
const BODY_PREFIX_MIN = 4;
const bodyPrefix = (term: string): boolean => term.length >= BODY_PREFIX_MIN;
/** MiniSearch's weights for prefix and fuzzy expansions, and its BM25+ parameters. */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };

/** Build-time options (MiniSearch builds both indexes; ./term-index.ts answers the queries). */
const metaOptions: Options<Record<string, unknown>> = {
  idField: 'id',
  fields: [...META_FIELDS],
  storeFields: [...STORED_FIELDS],
  // Lists are indexed one item per line (paths are tokenized per line) and stored as arrays.
  stringifyField: (value, field) => (LIST_FIELDS.has(field) && Array.isArray(value) ? value.join('\n') : String(value)),
  tokenize: (text, field) => (field === 'paths' ? text.split('\n').flatMap(tokenizePath) : tokenizeText(text)),
  processTerm: (term, field) => (field === 'paths' ? normalizePathTerm(term) : normalizeTerm(term)),
};

const bodyOptions: Options<Record<string, unknown>> = {
  idField: 'id',
  fields: ['body'],
  storeFields: [],
  tokenize: (text) => text.split(' '),
  processTerm: (term) => normalizeBodyTerm(term),
};

/** How one index is queried. */
interface Matching {
  index: TermIndex;
  /** Boost by field number. */
  boosts: number[];
  normalize: (term: string) => string | undefined;
  prefix: (term: string) => boolean;
  fuzzy: (term: string) => number;
  /** Field name reported in matches (`body` for every field of the body index). */
  label?: string;
}

const wrap = (kind: SerializedIndex['kind'], index: MiniSearch<Record<string, unknown>>): SerializedIndex => ({
  format: 'skillpress-search',
  version: SEARCH_FORMAT_VERSION,
  kind,
  // toJSON gives the plain object MiniSearch.loadJS reads back; the codec shrinks its postings.
  // Terms go sorted: readers find prefixes by binary search, and gzip packs them tighter.
  index: encodeIndex(sortTerms(index.toJSON())),
});

function sortTerms<T extends { index: Array<[string, unknown]> }>(plain: T): T {
  plain.index.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return plain;
}

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

function unwrap(json: unknown, kind: SerializedIndex['kind']): TermIndex {
  const data = typeof json === 'string' ? (JSON.parse(json) as unknown) : json;
  const s = data as Partial<SerializedIndex> | null;
  if (!s || s.format !== 'skillpress-search' || s.kind !== kind) {
    throw new Error(`not a skillpress ${kind} search index (expected format "skillpress-search", kind "${kind}")`);
  }
  if (s.version !== SEARCH_FORMAT_VERSION) {
    throw new Error(`search index version ${String(s.version)} is not supported (this skillpress reads version ${SEARCH_FORMAT_VERSION})`);
  }
  return new TermIndex(s.index as CompactIndex);
}

/** A query token: the whole token, or all of its word parts (`scripts/extract.py` or scripts + extract + py). */
interface TokenQuery {
  whole: string;
  parts: string[];
}

function tokenQuery(token: string): TokenQuery | undefined {
  const parts = tokenizeText(token);
  if (parts.length === 0) return undefined;
  const whole = token.replace(/^[^\p{L}\p{N}/]+|[^\p{L}\p{N}]+$/gu, '');
  return { whole, parts: parts.filter((p) => p !== whole) };
}

/**
 * What one query term matched in one index: its expanded terms and each document's score
 * (dense, by document number; 0 = no match: every match scores above 0).
 */
interface TermHits {
  terms: number[];
  scores: Float64Array;
}

/** One token in one index: MiniSearch's `whole OR (part AND part …)`, scored as MiniSearch scores it. */
interface IndexHits {
  whole: TermHits | undefined;
  /** One per word part, or none when some part matched nothing. */
  parts: TermHits[];
}

/** Documents are numbered densely, so per-document scores live in typed arrays, not Maps. */
function matchTerm(m: Matching, raw: string, n: number): TermHits | undefined {
  const term = m.normalize(raw);
  if (term === undefined) return undefined;
  const ix = m.index;
  const nf = ix.fieldNames.length;
  const { offsets, fields, docs, freqs, fieldLength, averageFieldLength } = ix;
  const scores = new Float64Array(n);
  const terms: number[] = [];
  for (const e of ix.expand(term, m.prefix(term), m.fuzzy(term))) {
    const len = ix.terms[e.term]!.length;
    const weight = e.kind === 'exact' ? 1 : e.kind === 'prefix' ? (PREFIX_WEIGHT * len) / (len + 0.3 * e.distance) : (FUZZY_WEIGHT * len) / (len + e.distance);
    terms.push(e.term);
    const end = offsets[e.term + 1]!;
    let i = offsets[e.term]!;
    while (i < end) {
      // One run of postings per field: BM25+ as MiniSearch computes it.
      const f = fields ? fields[i]! : 0;
      let runEnd = fields ? i + 1 : end;
      while (runEnd < end && fields![runEnd] === f) runEnd++;
      const matching = runEnd - i;
      const idf = Math.log(1 + (ix.documentCount - matching + 0.5) / (matching + 0.5));
      const scale = weight * (m.boosts[f] ?? 1) * idf;
      const lengthNorm = (BM25.k * BM25.b) / averageFieldLength[f]!;
      const base = BM25.k * (1 - BM25.b);
      for (; i < runEnd; i++) {
        const d = docs[i]!;
        if (d >= n) continue; // a body posting of a skill not in the metadata index
        const tf = freqs ? freqs[i]! : 1;
        scores[d]! += scale * (BM25.d + (tf * (BM25.k + 1)) / (tf + base + lengthNorm * fieldLength[d * nf + f]!));
      }
    }
  }
  return { terms, scores };
}

/** Adds this index's score for one token to `into` (× `weight`); MiniSearch multiplies by the number of query terms matched. */
function matchToken(m: Matching, q: TokenQuery, n: number, into: Float64Array, weight: number): IndexHits {
  const whole = matchTerm(m, q.whole, n);
  let parts: TermHits[] = [];
  for (const p of q.parts) {
    const hits = matchTerm(m, p, n);
    if (!hits) {
      parts = [];
      break;
    }
    parts.push(hits);
  }
  const w = whole?.scores;
  const k = parts.length;
  for (let d = 0; d < n; d++) {
    let s = 0;
    let all = k > 0;
    for (let j = 0; j < k && all; j++) {
      const v = parts[j]!.scores[d]!;
      if (v === 0) all = false;
      else s += v;
    }
    const ws = w ? w[d]! : 0;
    const score = all ? (ws > 0 ? (ws + s) * (1 + k) : s * k) : ws;
    if (score > 0) into[d]! += score * weight;
  }
  return { whole, parts };
}

export class SkillSearch {
  private readonly meta: Matching;
  private body: Matching | undefined;
  private readonly numbers = new Map<string, number>();
  /** Document numbers by skill name (an exact name match wins). */
  private readonly byName = new Map<string, number[]>();

  private constructor(meta: TermIndex) {
    this.meta = {
      index: meta,
      boosts: meta.fieldNames.map((f) => (FIELD_BOOSTS as Record<string, number>)[f] ?? 1),
      normalize: normalizePathTerm,
      prefix,
      fuzzy,
    };
    meta.ids.forEach((id, d) => this.numbers.set(id, d));
    meta.stored.forEach((stored, d) => {
      const name = stored?.name;
      if (typeof name === 'string') this.byName.set(name, [...(this.byName.get(name) ?? []), d]);
    });
  }

  /** Load `search.json` (parsed object or JSON text) and, optionally, the body index. */
  static load(searchJson: unknown, bodyJson?: unknown): SkillSearch {
    const s = new SkillSearch(unwrap(searchJson, 'metadata'));
    if (bodyJson !== undefined) s.attachBody(bodyJson);
    return s;
  }

  /** Add the lazily loaded body index (`search-body.json`). */
  attachBody(bodyJson: unknown): void {
    const body = unwrap(bodyJson, 'body');
    // Both indexes are built from the same entries, so document numbers normally agree.
    if (body.ids.some((id, d) => this.numbers.get(id) !== d)) body.renumber(Int32Array.from(body.ids, (id) => this.numbers.get(id) ?? -1), this.size);
    this.body = { index: body, boosts: body.fieldNames.map(() => 1), normalize: normalizeBodyTerm, prefix: bodyPrefix, fuzzy: () => 0, label: 'body' };
  }

  get hasBody(): boolean {
    return this.body !== undefined;
  }

  get size(): number {
    return this.meta.index.documentCount;
  }

  /** The stored card fields of one skill, if it is in the index. */
  doc(id: string): SearchDoc | undefined {
    const d = this.numbers.get(id);
    return d === undefined ? undefined : this.docAt(d);
  }

  /** Every document, in index order (for listing without a query). */
  all(): SearchDoc[] {
    return this.meta.index.ids.map((_, d) => this.docAt(d));
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    return this.searchPage(query, options).hits;
  }

  /**
   * Like `search`, and also the number of matching skills: only the `limit` best are
   * materialized as hits, so a broad query over a big catalog stays cheap.
   */
  searchPage(query: string, options: SearchOptions = {}): { total: number; hits: SearchHit[] } {
    const tokens = [...new Set(query.split(/\s+/).filter(Boolean))];
    const useBody = this.body !== undefined && !options.metadataOnly;
    const n = this.size;
    const perToken: Array<{ meta: IndexHits; body?: IndexHits; scores: Float64Array }> = [];
    for (const token of tokens) {
      const q = tokenQuery(token);
      if (q === undefined) continue; // punctuation only
      const scores = new Float64Array(n);
      const meta = matchToken(this.meta, q, n, scores, 1);
      const body = useBody ? matchToken(this.body!, q, n, scores, BODY_WEIGHT) : undefined;
      perToken.push({ meta, body, scores });
    }
    if (perToken.length === 0) return { total: 0, hits: [] };

    // Total score per document; 0 when it is not a result (allTokens: some token missed it).
    const total = new Float64Array(n);
    for (const { scores } of perToken) {
      for (let d = 0; d < n; d++) {
        const s = scores[d]!;
        if (s > 0) total[d]! += s;
        else if (options.allTokens) total[d] = -Infinity;
      }
    }
    // An exact name match wins.
    const wholeQuery = normalizeTerm(query.trim(), 200);
    const tokenSet = new Set(tokens.map((t) => normalizeTerm(t, 200)));
    for (const name of new Set([wholeQuery, ...tokenSet])) {
      for (const d of (name !== undefined && this.byName.get(name)) || []) {
        if (total[d]! > 0) total[d]! *= name === wholeQuery ? EXACT_NAME_BONUS * 2 : EXACT_NAME_BONUS;
      }
    }

    const ids = this.meta.index.ids;
    const before = (a: number, b: number): boolean => total[a]! > total[b]! || (total[a] === total[b] && ids[a]! < ids[b]!);
    const limit = options.limit ?? Infinity;
    // The best `limit` documents, kept sorted; everything else is only counted.
    const best: number[] = [];
    let count = 0;
    for (let d = 0; d < n; d++) {
      if (!(total[d]! > 0)) continue;
      if (options.filter && !options.filter(this.docAt(d))) continue;
      count++;
      if (best.length >= limit && !before(d, best[best.length - 1]!)) continue;
      if (limit === Infinity) {
        best.push(d);
        continue;
      }
      let i = best.length;
      while (i > 0 && before(d, best[i - 1]!)) i--;
      best.splice(i, 0, d);
      if (best.length > limit) best.pop();
    }
    if (limit === Infinity) best.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
    return { total: count, hits: best.map((d) => this.hit(d, total[d]!, perToken)) };
  }

  /** A hit with the terms that matched and where: only worked out for the hits returned. */
  private hit(d: number, score: number, perToken: Array<{ meta: IndexHits; body?: IndexHits }>): SearchHit {
    const match: Record<string, string[]> = {};
    const add = (m: Matching, hits: TermHits) => {
      for (const t of hits.terms) {
        const fields = m.index.fieldsOf(t, d);
        if (fields.length === 0) continue;
        const term = m.index.terms[t]!;
        const into = (match[term] ??= []);
        for (const f of m.label ? [m.label] : fields) if (!into.includes(f)) into.push(f);
      }
    };
    for (const t of perToken) {
      for (const [m, ih] of [[this.meta, t.meta], [this.body, t.body]] as const) {
        if (!m || !ih) continue;
        if (ih.whole && ih.whole.scores[d]! > 0) add(m, ih.whole);
        if (ih.parts.length > 0 && ih.parts.every((p) => p.scores[d]! > 0)) for (const p of ih.parts) add(m, p);
      }
    }
    return { id: this.meta.index.ids[d]!, score, terms: Object.keys(match), match, doc: this.docAt(d) };
  }

  private docAt(d: number): SearchDoc {
    return { id: this.meta.index.ids[d]!, ...this.meta.index.stored[d] } as SearchDoc;
  }
}
